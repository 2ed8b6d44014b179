import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { EMAIL_MAX, FULL_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USER_NAME, USER_NAME_RULE } from '../admin-names.js';
import { PageDto } from '../../common/paging.dto.js';

// null is a value to refuse for these fields: only a missing field is left alone.
const given = (_: object, v: unknown) => v !== undefined;
const NO_NUL = /^[^\u0000]*$/;

export class UserNameParamDto {
  /** user name */
  @ApiProperty({ example: 'example-user' })
  @IsString()
  name!: string;
}

export class CreateUserDto {
  @ApiProperty({ description: `sign-in name: ${USER_NAME_RULE}`, example: 'example-user' })
  @IsString({ message: 'name must be a string' })
  @Matches(USER_NAME, { message: `name must be ${USER_NAME_RULE}` })
  name!: string;

  @ApiProperty({ description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, example: 'example-pw-1' })
  @IsString({ message: 'password must be a string' })
  @MinLength(PASSWORD_MIN, { message: `password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX, { message: `password must be at most ${PASSWORD_MAX} characters` })
  @Matches(NO_NUL, { message: 'password must not contain NUL characters' })
  password!: string;

  @ApiPropertyOptional({ example: 'Example User' })
  @IsOptional()
  @IsString({ message: 'fullName must be a string' })
  @MaxLength(FULL_NAME_MAX, { message: `fullName must be at most ${FULL_NAME_MAX} characters` })
  fullName?: string | null;

  @ApiPropertyOptional({ example: 'example.user@example.com' })
  @IsOptional()
  @MaxLength(EMAIL_MAX, { message: `email must be at most ${EMAIL_MAX} characters` })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string | null;

  /** administrator: sees and manages everything */
  @ApiPropertyOptional({ default: false, example: false })
  @ValidateIf(given)
  @IsBoolean({ message: 'admin must be true or false' })
  admin?: boolean;

  /** a disabled user cannot sign in */
  @ApiPropertyOptional({ default: false, example: false })
  @ValidateIf(given)
  @IsBoolean({ message: 'disabled must be true or false' })
  disabled?: boolean;
}

/** Every field optional; a missing one is left as it is, fullName or email null clears it. */
export class UpdateUserDto {
  /** a new password; takes effect at once in every instance */
  @ApiPropertyOptional({ example: 'example-pw-2' })
  @ValidateIf(given)
  @IsString({ message: 'password must be a string' })
  @MinLength(PASSWORD_MIN, { message: `password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX, { message: `password must be at most ${PASSWORD_MAX} characters` })
  @Matches(NO_NUL, { message: 'password must not contain NUL characters' })
  password?: string;

  @ApiPropertyOptional({ example: 'Example User (renamed)' })
  @IsOptional()
  @IsString({ message: 'fullName must be a string' })
  @MaxLength(FULL_NAME_MAX, { message: `fullName must be at most ${FULL_NAME_MAX} characters` })
  fullName?: string | null;

  @ApiPropertyOptional({ example: 'example.user@example.org' })
  @IsOptional()
  @MaxLength(EMAIL_MAX, { message: `email must be at most ${EMAIL_MAX} characters` })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string | null;

  @ApiPropertyOptional({ example: false })
  @ValidateIf(given)
  @IsBoolean({ message: 'admin must be true or false' })
  admin?: boolean;

  /** true: the user can no longer sign in (at once, in every instance) */
  @ApiPropertyOptional({ example: false })
  @ValidateIf(given)
  @IsBoolean({ message: 'disabled must be true or false' })
  disabled?: boolean;
}

export class UserDto {
  @ApiProperty({ example: 'OR:wt.org.WTUser:5' })
  oid!: string;

  @ApiProperty({ example: 'example-user' })
  name!: string;

  @ApiProperty({ example: 'Example User', type: String })
  fullName!: string | null;

  @ApiProperty({ example: 'example.user@example.com', type: String })
  email!: string | null;

  @ApiProperty({ example: false })
  admin!: boolean;

  @ApiProperty({ example: false })
  disabled!: boolean;

  @ApiProperty({ example: '2026-11-23T12:00:00.000Z' })
  createdAt!: string;
}

export class UserListDto extends PageDto {
  items!: UserDto[];
}
