import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../auth/auth-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, OBJECT_BUSY_ANSWER } from '../../common/api-docs.decorators.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../common/paging.dto.js';
import {
  CatalogLinkDto,
  CatalogLinkListDto,
  CreateLinkDto,
  LinkListQueryDto,
  LinkParamDto,
  PlainObjectDto,
  UpdatePlainObjectDto,
} from '../dto/catalog-object.dto.js';
import { ObjectTypeQueryDto } from '../dto/object-request.dto.js';
import { ObjectRefParamDto } from '../dto/structure-query.dto.js';
import { CatalogLinksService } from '../links/catalog-links.service.js';
import { PlainObjectsService } from './plain-objects.service.js';

const BAD = 'bad parameter or body; the message names the field';
const FORBIDDEN = 'the caller may only read the container (or, outside containers, is no administrator)';

/**
 * Plain objects changed in place, and links of the catalog's link classes between any objects
 * (creating, reading and deleting plain objects go through POST, GET and DELETE /objects).
 */
@ApiTags('objects')
@ApiAuthenticated()
@Controller('objects')
export class CatalogObjectsController {
  constructor(
    private readonly plain: PlainObjectsService,
    private readonly links: CatalogLinksService,
  ) {}

  @Post('links')
  @ApiOperation({
    summary: 'Link two objects by a catalog link class',
    description:
      "A link of a link class of the catalog (a part's described-by document, a change task's affected data, a " +
      "group's member …): role A and role B each an OID or a number (a name for users and unnumbered objects) of " +
      "the class the catalog gives the role (400 naming it otherwise). Kept in role A's container (else role B's): " +
      'the caller needs author or manager rights there; links between objects outside containers are made by ' +
      "administrators. A link is its role A's, as a usage link is its parent's: while role A is a versioned " +
      'object another user holds checked out, it is refused (409 naming the holder).',
  })
  @ApiBody({
    type: CreateLinkDto,
    examples: {
      'described by': {
        summary: 'a part described by a document',
        value: { class: 'wt.part.WTPartDescribeLink', a: 'P-00000001', b: '0000000003' },
      },
    },
  })
  @ApiCreatedResponse({ type: CatalogLinkDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: 'no such object of the role class the caller may read',
    409: 'the two are linked by that class already; role A is checked out by another user (the message names them)',
  })
  addLink(@CurrentUser() user: AuthUser, @Body() body: CreateLinkDto): Promise<CatalogLinkDto> {
    return this.links.add(user, body);
  }

  @Delete('links/:link')
  @ApiOperation({
    summary: 'Remove a catalog link',
    description:
      'Answers the link removed. Needs write rights where it is kept; refused (409 naming the holder) while its ' +
      'role A is a versioned object another user holds checked out.',
  })
  @ApiParam({ name: 'link', description: 'the link id or OID', example: '1' })
  @ApiOkResponse({ type: CatalogLinkDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: 'no such link the caller may read',
    409: 'its role A is checked out by another user (the message names them)',
  })
  removeLink(@CurrentUser() user: AuthUser, @Param() params: LinkParamDto): Promise<CatalogLinkDto> {
    return this.links.remove(user, params.link);
  }

  @Get(':ref/links')
  @ApiOperation({
    summary: "An object's catalog links",
    description:
      'The links naming the object in role A or B (a versioned object by any of its iterations or its master) ' +
      'that the caller may read, oldest first, with both ends (an end in a container the caller cannot read is ' +
      `shown restricted). Paged: page from 1, limit 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT}); ` +
      '`total` counts them all.',
  })
  @ApiParam({ name: 'ref', description: 'OID, or number (with type for a plain class)', example: 'P-00000002' })
  @ApiOkResponse({ type: CatalogLinkListDto })
  @ApiErrors({ 400: BAD, 404: 'no such object the caller may read' })
  listLinks(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: LinkListQueryDto,
  ): Promise<CatalogLinkListDto> {
    return this.links.list(user, params.ref, query);
  }

  @Patch(':ref')
  @ApiOperation({
    summary: 'Change a plain object',
    description:
      'An object of a plain catalog class (a view, a workflow process, an organisation …): its name, state, ' +
      'props (merged; null removes one) and references. Versioned objects change through /iterations and /state.',
  })
  @ApiParam({
    name: 'ref',
    description: 'the OID of a plain object, or its number with type',
    example: 'OR:wt.vc.views.View:1',
  })
  @ApiBody({
    type: UpdatePlainObjectDto,
    examples: {
      props: { summary: "a view's description", value: { props: { description: 'the engineering view' } } },
    },
  })
  @ApiOkResponse({ type: PlainObjectDto })
  @ApiErrors({ 400: BAD, 403: FORBIDDEN, 404: 'no such object the caller may read', 503: OBJECT_BUSY_ANSWER })
  update(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: ObjectTypeQueryDto,
    @Body() body: UpdatePlainObjectDto,
  ): Promise<PlainObjectDto> {
    return this.plain.updateNamed(user, params.ref, query.type, body);
  }
}
