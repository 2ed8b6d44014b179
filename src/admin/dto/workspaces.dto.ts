import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import {
  DISPLAY_NAME,
  DISPLAY_NAME_RULE,
  ROLE_NAME,
  ROLE_NAME_RULE,
  USER_NAME,
  USER_NAME_RULE,
} from '../admin-names.js';
import { PageDto } from '../../common/paging.dto.js';

export class WorkspaceNameParamDto {
  /** workspace name (URL-encoded) */
  @ApiProperty({ example: 'example-ws' })
  @IsString()
  name!: string;
}

export class CreateWorkspaceDto {
  @ApiProperty({ description: DISPLAY_NAME_RULE, example: 'example-ws' })
  @IsString({ message: 'name must be a string' })
  @Matches(DISPLAY_NAME, { message: `name must be ${DISPLAY_NAME_RULE}` })
  name!: string;

  /** name of the container the workspace works in */
  @ApiProperty({ example: 'Drive Unit' })
  @IsString({ message: 'container must be a string' })
  @Matches(DISPLAY_NAME, { message: `container must be ${DISPLAY_NAME_RULE}` })
  container!: string;

  /** name of the user who owns it */
  @ApiProperty({ example: 'alice' })
  @IsString({ message: 'owner must be a string' })
  @Matches(USER_NAME, { message: `owner must be ${USER_NAME_RULE}` })
  owner!: string;
}

export class WorkspaceDto {
  @ApiProperty({ example: 'OR:wt.epm.workspaces.EPMWorkspace:3' })
  oid!: string;

  @ApiProperty({ example: 'example-ws' })
  name!: string;

  @ApiProperty({ example: 'Drive Unit' })
  container!: string;

  @ApiProperty({ example: 'alice' })
  owner!: string;
}

export class WorkspaceListDto extends PageDto {
  items!: WorkspaceDto[];
}

export class CreateContentRoleDto {
  @ApiProperty({ description: ROLE_NAME_RULE, example: 'MARKUP' })
  @IsString({ message: 'name must be a string' })
  @Matches(ROLE_NAME, { message: `name must be ${ROLE_NAME_RULE}` })
  name!: string;
}

export class ContentRoleDto {
  @ApiProperty({ example: 'MARKUP' })
  name!: string;
}

export class ContentRoleListDto {
  @ApiProperty({ example: 4 })
  count!: number;

  items!: ContentRoleDto[];
}
