import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { TOKEN_SCOPES, type TokenScope } from '../../auth-user.js';

export const TOKEN_NAME_MAX = 100;

export class CreateTokenDto {
  /** what the token is for; unique among the user's tokens in use */
  @ApiProperty({ example: 'nightly export', maxLength: TOKEN_NAME_MAX })
  @IsString({ message: 'name must be a string' })
  @Matches(/^\S(.*\S)?$/u, { message: 'name must not be empty nor start or end with white space' })
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'name must not contain control characters' })
  @MaxLength(TOKEN_NAME_MAX, { message: `name must be at most ${TOKEN_NAME_MAX} characters` })
  name!: string;

  /** when the token stops working (ISO 8601); give this or expiresInDays */
  @ApiPropertyOptional({ example: '2027-01-31T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expiresAt must be an ISO 8601 date and time' })
  expiresAt?: string;

  /** days from now until the token stops working; give this or expiresAt */
  @ApiPropertyOptional({ example: 30, minimum: 1 })
  @IsOptional()
  @IsInt({ message: 'expiresInDays must be a whole number' })
  @Min(1, { message: 'expiresInDays must be at least 1' })
  expiresInDays?: number;

  /** `read`, `write` (includes read) or `admin` (includes both; administrators only) */
  @ApiProperty({ example: ['read'], isArray: true, enum: TOKEN_SCOPES })
  @IsArray({ message: 'scopes must be an array' })
  @ArrayMinSize(1, { message: 'scopes must name at least one of read, write, admin' })
  @IsIn(TOKEN_SCOPES, { each: true, message: 'scopes must each be one of read, write, admin' })
  scopes!: TokenScope[];
}

export class TokenDto {
  @ApiProperty({ example: 12 })
  id!: number;

  @ApiProperty({ example: 'nightly export' })
  name!: string;

  /** expanded: `write` includes `read`, `admin` both */
  @ApiProperty({ example: ['read'], isArray: true, enum: TOKEN_SCOPES })
  scopes!: string[];

  /** the token's last 4 characters, to tell tokens apart */
  @ApiProperty({ example: 'x4Qz' })
  hint!: string;

  @ApiProperty({ example: '2026-11-27T12:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-12-27T12:00:00.000Z' })
  expiresAt!: string;

  /** at most a minute behind */
  @ApiProperty({ example: null, nullable: true, type: String })
  lastUsedAt!: string | null;
}

export class CreatedTokenDto extends TokenDto {
  /** the token: shown this once, only a hash of it is kept */
  @ApiProperty({ example: 'pdm_pat_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG012345' })
  token!: string;
}

export class TokenListDto {
  @ApiProperty({ type: [TokenDto] })
  tokens!: TokenDto[];
}

export class UserTokenParamDto {
  /** user name */
  @ApiProperty({ example: 'alice' })
  @IsString()
  name!: string;
}

export class UserTokenIdParamDto extends UserTokenParamDto {
  /** the token's id */
  @ApiProperty({ example: 2 })
  @Type(() => Number)
  @IsInt({ message: 'tokenId must be a whole number' })
  @Min(1, { message: 'tokenId must be at least 1' })
  @Max(2_147_483_647, { message: 'tokenId must be at most 2147483647' })
  tokenId!: number;
}
