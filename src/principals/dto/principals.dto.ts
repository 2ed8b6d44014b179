import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageDto, PageQueryDto } from '../../common/paging.dto.js';

export const PRINCIPAL_SEARCH_MAX = 200;

export class PrincipalSearchQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description:
      'part of the name (users: login or full name), case-insensitive; `*` and `?` make it a whole-name pattern',
    example: 'exa',
    maxLength: PRINCIPAL_SEARCH_MAX,
  })
  @IsOptional()
  @IsString({ message: 'name must be a string' })
  @MaxLength(PRINCIPAL_SEARCH_MAX, { message: `name must be at most ${PRINCIPAL_SEARCH_MAX} characters` })
  name?: string;
}

export class PrincipalUserDto {
  @ApiProperty({ example: 'OR:wt.org.WTUser:5' })
  oid!: string;

  @ApiProperty({ example: 'example-user' })
  name!: string;

  @ApiProperty({ example: 'Example User', type: String, nullable: true })
  fullName!: string | null;
}

export class PrincipalUserListDto extends PageDto {
  items!: PrincipalUserDto[];
}

export class PrincipalGroupDto {
  @ApiProperty({ example: 'OR:wt.org.WTGroup:3' })
  oid!: string;

  @ApiProperty({ example: 'design-team' })
  name!: string;

  @ApiProperty({ example: 'Mechanical design', type: String, nullable: true })
  description!: string | null;
}

export class PrincipalGroupListDto extends PageDto {
  items!: PrincipalGroupDto[];
}

export class MyGroupDto {
  @ApiProperty({ example: 'OR:wt.org.WTGroup:3' })
  oid!: string;

  @ApiProperty({ example: 'design-team' })
  name!: string;

  @ApiProperty({ description: 'a member of this group itself, not only through a nested group', example: true })
  direct!: boolean;
}

export class MyContainerDto {
  @ApiProperty({ example: 'Demo Product' })
  name!: string;

  @ApiProperty({ description: "the highest of the own and the groups' roles", enum: ['reader', 'author', 'manager'] })
  role!: string;
}

export class MeDto {
  @ApiProperty({ example: 'OR:wt.org.WTUser:5' })
  oid!: string;

  @ApiProperty({ example: 'example-user' })
  name!: string;

  @ApiProperty({ example: 'Example User', type: String, nullable: true })
  fullName!: string | null;

  @ApiProperty({ example: 'example.user@example.com', type: String, nullable: true })
  email!: string | null;

  @ApiProperty({ description: 'administrator rights in this request (a token without the admin scope has none)' })
  admin!: boolean;

  @ApiProperty({ description: 'how this request signed in', enum: ['basic', 'token', 'oidc'] })
  via!: string;

  @ApiProperty({
    description: 'the scopes of the personal access token of this request; null for other sign-ins',
    type: [String],
    nullable: true,
    example: null,
  })
  scopes!: string[] | null;

  @ApiProperty({ type: [MyGroupDto] })
  groups!: MyGroupDto[];

  @ApiProperty({ description: 'the containers the user may read, with their role there', type: [MyContainerDto] })
  containers!: MyContainerDto[];
}
