import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { PlainObjectDto } from './dto/catalog-object.dto.js';
import { ObjectTypeQueryDto, ReadObjectQueryDto } from './dto/object-request.dto.js';
import { IterationListDto, ObjectDto } from './dto/object-response.dto.js';
import { ObjectRefParamDto, StructureQueryDto } from './dto/structure-query.dto.js';
import { StructureDto } from './dto/structure-response.dto.js';
import { ObjectsService } from './objects.service.js';

const NAMING =
  'The object is named by the OID of an iteration or by a number (its latest iteration; `type` picks the class ' +
  'when several carry the number). Objects in containers the caller cannot read are shown as `restricted` ' +
  '(the link only) and not followed; an object already on the path is marked `cycle` and not followed again. ' +
  'One recursive SQL statement; at most OBJECTS_STRUCTURE_MAX_NODES nodes, filled level by level (`truncated`).';

const REF =
  'OID of an iteration (OR:wt.doc.WTDocument:<id>) or the number of a business object (`type` picks the class ' +
  'when several carry it)';

@ApiTags('objects')
@ApiAuthenticated()
@Controller('objects')
export class ObjectsController {
  constructor(private readonly objects: ObjectsService) {}

  @Get(':ref')
  @ApiOperation({
    summary: 'Read a business object',
    description:
      'A document, part, CAD document or other versioned object (a change notice …): its latest iteration, or with ' +
      '`version` the latest iteration of that version (A) or one iteration (A.2). The OID of an iteration names ' +
      'that iteration. A plain object (a view, a workflow process …) is named by its OID, or by its number with ' +
      '`type` its class. Needs read rights.',
  })
  @ApiParam({ name: 'ref', description: REF, example: '0000000001' })
  @ApiExtraModels(PlainObjectDto)
  @ApiOkResponse({
    description: 'a versioned object (ObjectDto), or a plain one (PlainObjectDto)',
    schema: { oneOf: [{ $ref: getSchemaPath(ObjectDto) }, { $ref: getSchemaPath(PlainObjectDto) }] },
  })
  @ApiErrors({
    400: 'bad version, type or OID; a number several classes carry',
    404: 'no such object (or iteration) the caller may read',
  })
  read(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: ReadObjectQueryDto,
  ): Promise<ObjectDto | PlainObjectDto> {
    return this.objects.read(user, params.ref, query);
  }

  @Get(':ref/iterations')
  @ApiOperation({
    summary: 'List every iteration of a business object',
    description: 'All iterations of all versions, oldest first (A.1, A.2, B.1 …). Needs read rights.',
  })
  @ApiParam({ name: 'ref', description: REF, example: '0000000001' })
  @ApiOkResponse({ type: IterationListDto })
  @ApiErrors({ 400: 'bad type or OID; a number several classes carry', 404: 'no such object the caller may read' })
  iterations(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: ObjectTypeQueryDto,
  ): Promise<IterationListDto> {
    return this.objects.iterations(user, params.ref, query);
  }

  @Get(':ref/structure')
  @ApiOperation({
    summary: 'The part or CAD structure below an object',
    description:
      'The objects its usage links (WTPartUsageLink, EPMMemberLink) use, each by its latest iteration, with ' +
      'quantity, unit and line number, `levels` deep. ' +
      NAMING,
  })
  @ApiOkResponse({ type: StructureDto })
  @ApiErrors({
    400: 'bad levels, type or OID; a number several classes carry',
    404: 'no such object the caller may read',
  })
  structure(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: StructureQueryDto,
  ): Promise<StructureDto> {
    return this.objects.structure(user, params.ref, query);
  }

  @Get(':ref/where-used')
  @ApiOperation({
    summary: 'The objects using an object',
    description:
      'The objects whose latest iteration has a usage link to this object, then those using them, `levels` ' +
      'deep; each node carries the link from it to the node below. ' +
      NAMING,
  })
  @ApiOkResponse({ type: StructureDto })
  @ApiErrors({
    400: 'bad levels, type or OID; a number several classes carry',
    404: 'no such object the caller may read',
  })
  whereUsed(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: StructureQueryDto,
  ): Promise<StructureDto> {
    return this.objects.whereUsed(user, params.ref, query);
  }
}
