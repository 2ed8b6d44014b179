import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { PageDto, PageQueryDto } from '../../common/paging.dto.js';
import { GROUP_NAME, GROUP_NAME_MAX, GROUP_NAME_RULE } from '../group-rules.js';

export const GROUP_ROLES = ['reader', 'author', 'manager'] as const;
const DESCRIPTION_MAX = 2000;
const given = (_: object, v: unknown) => v !== undefined;

/** A row id in a path: one message whatever is wrong with it. */
function IsId(): PropertyDecorator {
  return ValidateBy({
    name: 'isId',
    validator: {
      validate: (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 2_147_483_647,
      defaultMessage: (a) => `${a?.property} must be a whole number from 1 to 2147483647`,
    },
  });
}

export class GroupListQueryDto extends PageQueryDto {
  /** groups whose name matches, case-insensitive; * any run of characters, ? one */
  @ApiPropertyOptional({ example: 'eng*' })
  @IsOptional()
  @IsString({ message: 'name must be a string' })
  @MaxLength(GROUP_NAME_MAX, { message: `name must be at most ${GROUP_NAME_MAX} characters` })
  name?: string;
}

export class GroupIdParamDto {
  /** group id */
  @ApiProperty({ example: 1 })
  @Type(() => Number)
  @IsId()
  id!: number;
}

/** As GroupIdParamDto, with another example: Swagger UI's "Try it out" keeps group 1. */
export class GroupDeleteParamDto {
  /** group id */
  @ApiProperty({ example: 2 })
  @Type(() => Number)
  @IsId()
  id!: number;
}

export class GroupUserParamsDto extends GroupIdParamDto {
  /** user name */
  @ApiProperty({ example: 'carol' })
  @IsString()
  user!: string;
}

export class GroupGroupParamsDto extends GroupIdParamDto {
  /** id of the group put into (or taken out of) group `id` */
  @ApiProperty({ example: 2 })
  @Type(() => Number)
  @IsId()
  memberGroupId!: number;
}

export class ContainerParamDto {
  /** container name (URL-encoded) */
  @ApiProperty({ example: 'Drive Unit' })
  @IsString()
  container!: string;
}

export class ContainerGroupParamsDto extends ContainerParamDto {
  /** group id */
  @ApiProperty({ example: 1 })
  @Type(() => Number)
  @IsId()
  groupId!: number;
}

export class CreateGroupDto {
  @ApiProperty({ description: GROUP_NAME_RULE, example: 'Design Team' })
  @IsString({ message: 'name must be a string' })
  @Matches(GROUP_NAME, { message: `name must be ${GROUP_NAME_RULE}` })
  name!: string;

  @ApiPropertyOptional({ example: 'Everyone who designs drive units', type: String })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string | null;
}

/** A missing field is left as it is; description null clears it. */
export class UpdateGroupDto {
  @ApiPropertyOptional({ description: `a new name: ${GROUP_NAME_RULE}`, example: 'Design Team' })
  @ValidateIf(given)
  @IsString({ message: 'name must be a string' })
  @Matches(GROUP_NAME, { message: `name must be ${GROUP_NAME_RULE}` })
  name?: string;

  @ApiPropertyOptional({ example: 'Renamed from Swagger UI', type: String })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string | null;
}

export class GroupDto {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 'Design Team' })
  name!: string;

  @ApiProperty({ example: 'Everyone who designs drive units', type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ example: '2026-11-27T12:00:00.000Z' })
  createdAt!: string;

  /** users in the group directly */
  @ApiProperty({ example: 3 })
  users!: number;

  /** groups in the group directly */
  @ApiProperty({ example: 1 })
  groups!: number;
}

export class GroupListDto extends PageDto {
  items!: GroupDto[];
}

export class GroupMemberDto {
  @ApiProperty({ enum: ['group', 'user'], example: 'user' })
  kind!: 'group' | 'user';

  /** the group's id or the user's id */
  @ApiProperty({ example: 7 })
  id!: number;

  /** the group's or the user's name */
  @ApiProperty({ example: 'carol' })
  name!: string;

  @ApiPropertyOptional({ example: 'Carol Manager', type: String, nullable: true })
  fullName?: string | null;

  /** users only: '' when an administrator put them in, else the OpenID Connect issuer whose groups claim did */
  @ApiPropertyOptional({ example: '' })
  source?: string;
}

export class GroupMemberListDto extends PageDto {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 'Design Team' })
  group!: string;

  items!: GroupMemberDto[];
}

export class GroupUserDto {
  @ApiProperty({ example: 1 })
  groupId!: number;

  @ApiProperty({ example: 'carol' })
  user!: string;

  @ApiProperty({ example: 'Carol Manager', type: String, nullable: true })
  fullName!: string | null;

  @ApiProperty({ example: '' })
  source!: string;
}

export class GroupNestingDto {
  @ApiProperty({ example: 1 })
  groupId!: number;

  @ApiProperty({ example: 'Design Team' })
  group!: string;

  @ApiProperty({ example: 2 })
  memberGroupId!: number;

  @ApiProperty({ example: 'Gear Designers' })
  memberGroup!: string;
}

export class SetGroupRoleDto {
  @ApiProperty({ enum: GROUP_ROLES, example: 'reader' })
  @IsString({ message: 'role must be a string' })
  @IsIn(GROUP_ROLES, { message: `role must be one of ${GROUP_ROLES.join(', ')}` })
  role!: (typeof GROUP_ROLES)[number];
}

export class ContainerGroupDto {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 'Design Team' })
  name!: string;

  @ApiProperty({ enum: GROUP_ROLES, example: 'reader' })
  role!: string;
}

export class ContainerGroupListDto extends PageDto {
  @ApiProperty({ example: 'Drive Unit' })
  container!: string;

  items!: ContainerGroupDto[];
}
