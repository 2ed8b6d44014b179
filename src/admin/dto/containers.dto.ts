import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { CONTAINER_CLASSES } from '../../catalog/oid.js';
import { DISPLAY_NAME, DISPLAY_NAME_RULE, TEXT_MAX } from '../admin-names.js';
import { PageDto } from '../../common/paging.dto.js';

const given = (_: object, v: unknown) => v !== undefined;
export const MEMBER_ROLES = ['reader', 'author', 'manager'] as const;

export class ContainerNameParamDto {
  /** container name (URL-encoded) */
  @ApiProperty({ example: 'Example Project' })
  @IsString()
  container!: string;
}

export class MembersParamDto {
  /** container name (URL-encoded) */
  @ApiProperty({ example: 'Drive Unit' })
  @IsString()
  container!: string;
}

export class MemberParamsDto extends MembersParamDto {
  /** user name */
  @ApiProperty({ example: 'carol' })
  @IsString()
  user!: string;
}

export class CreateContainerDto {
  /** container class */
  @ApiProperty({ enum: CONTAINER_CLASSES, example: 'wt.projmgmt.admin.Project2' })
  @IsString({ message: 'class must be a string' })
  @IsIn(CONTAINER_CLASSES, { message: `class must be one of ${CONTAINER_CLASSES.join(', ')}` })
  class!: string;

  @ApiProperty({ description: DISPLAY_NAME_RULE, example: 'Example Project' })
  @IsString({ message: 'name must be a string' })
  @Matches(DISPLAY_NAME, { message: `name must be ${DISPLAY_NAME_RULE}` })
  name!: string;

  @ApiPropertyOptional({ example: 'A container made from Swagger UI' })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(TEXT_MAX, { message: `description must be at most ${TEXT_MAX} characters` })
  description?: string | null;
}

/** A missing field is left as it is; description null clears it. The class cannot change (it is part of the OID). */
export class UpdateContainerDto {
  @ApiPropertyOptional({ description: `a new name: ${DISPLAY_NAME_RULE}`, example: 'Example Project' })
  @ValidateIf(given)
  @IsString({ message: 'name must be a string' })
  @Matches(DISPLAY_NAME, { message: `name must be ${DISPLAY_NAME_RULE}` })
  name?: string;

  @ApiPropertyOptional({ example: 'Renamed from Swagger UI' })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(TEXT_MAX, { message: `description must be at most ${TEXT_MAX} characters` })
  description?: string | null;
}

export class ContainerDto {
  @ApiProperty({ example: 'OR:wt.projmgmt.admin.Project2:4' })
  oid!: string;

  @ApiProperty({ example: 'wt.projmgmt.admin.Project2' })
  class!: string;

  @ApiProperty({ example: 'Example Project' })
  name!: string;

  @ApiProperty({ example: 'A container made from Swagger UI', type: String })
  description!: string | null;

  @ApiProperty({ example: '2026-11-23T12:00:00.000Z' })
  createdAt!: string;
}

export class ContainerListDto extends PageDto {
  items!: ContainerDto[];
}

export class SetMemberDto {
  @ApiProperty({ example: 'reader' })
  @IsString({ message: 'role must be a string' })
  @IsIn(MEMBER_ROLES, { message: `role must be one of ${MEMBER_ROLES.join(', ')}` })
  role!: (typeof MEMBER_ROLES)[number];
}

export class MemberDto {
  @ApiProperty({ example: 'carol' })
  user!: string;

  @ApiProperty({ example: 'Carol Manager', type: String })
  fullName!: string | null;

  @ApiProperty({ enum: MEMBER_ROLES, example: 'reader' })
  role!: string;
}

export class MemberListDto extends PageDto {
  @ApiProperty({ example: 'Drive Unit' })
  container!: string;

  items!: MemberDto[];
}
