import { Body, Controller, Delete, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { AuthUser } from '../../auth/auth-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, OBJECT_BUSY_ANSWER } from '../../common/api-docs.decorators.js';
import {
  CreateObjectDto,
  DeleteObjectQueryDto,
  NewIterationDto,
  NewRevisionDto,
  ObjectTypeQueryDto,
  StateChangeDto,
} from '../dto/object-request.dto.js';
import { DeletedPlainObjectDto, PlainObjectDto } from '../dto/catalog-object.dto.js';
import { DeletedObjectDto, ObjectDto } from '../dto/object-response.dto.js';
import { ObjectRefParamDto } from '../dto/structure-query.dto.js';
import { ObjectChangesService } from './object-changes.service.js';
import { OidClass } from '../../catalog/oid.js';

const REF =
  'OID of the latest iteration, or the number of a business object (`type` picks the class when several carry it)';
const BAD = 'bad parameter or body; the message names the field';
const NOT_FOUND = 'no such object the caller may read';
const FORBIDDEN = 'the caller may only read the container';
const OLD = 'the OID names an iteration that is not the latest (read-only)';

@ApiTags('objects')
@ApiAuthenticated()
@Controller('objects')
export class ObjectChangesController {
  constructor(private readonly changes: ObjectChangesService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a business object',
    description:
      'A document, part or CAD document (with its subtype), or a soft type of one, in a container where the caller ' +
      'is author or manager: version A, iteration 1, in the first state of the lifecycle (INWORK). `number: ' +
      '"generate"` takes the next number of the container\'s numbering rule in the same transaction (a create ' +
      'that fails gives it back).',
  })
  @ApiBody({
    type: CreateObjectDto,
    examples: {
      document: {
        summary: 'a document in Drive Unit with a generated number',
        value: {
          type: OidClass.document,
          container: 'Drive Unit',
          number: 'generate',
          name: 'Gearbox specification',
          title: 'Gearbox specification, issue 1',
          attributes: { language: 'en', pages: 12 },
          note: 'first issue',
        },
      },
      'CAD document': {
        summary: 'a CAD part with a number of its own',
        value: {
          type: OidClass.cadDocument,
          subtype: 'CADCOMPONENT',
          container: 'Drive Unit',
          number: 'CAD-0001',
          name: 'gear.prt',
        },
      },
      'soft type': {
        summary: 'a software part (a soft type of wt.part.WTPart the demo data declares)',
        value: {
          type: 'com.acme.SoftwarePart',
          container: 'Drive Unit',
          number: 'generate',
          name: 'Gearbox firmware',
          attributes: { firmwareVersion: '1.0.0', memoryKb: 256 },
        },
      },
    },
  })
  @ApiExtraModels(PlainObjectDto)
  @ApiCreatedResponse({
    description: 'the versioned object (ObjectDto), or the plain one (PlainObjectDto)',
    schema: { oneOf: [{ $ref: getSchemaPath(ObjectDto) }, { $ref: getSchemaPath(PlainObjectDto) }] },
  })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: 'no container of that name the caller may read',
    409: 'the class has an object with that number; the rule has no number left',
  })
  create(@CurrentUser() user: AuthUser, @Body() body: CreateObjectDto): Promise<ObjectDto | PlainObjectDto> {
    return this.changes.create(user, body);
  }

  @Post(':ref/iterations')
  @ApiOperation({
    summary: 'Make a new iteration',
    description:
      'The next iteration of the latest version (A.1 → A.2), with files and usage links carried over; name, title, ' +
      'description and attributes change as the body says (null removes an attribute or clears a field), the ' +
      "rest is carried over. The name is the object's: every iteration shows the new one. Needs author or manager rights.",
  })
  @ApiParam({ name: 'ref', description: REF, example: '0000000003' })
  @ApiBody({
    type: NewIterationDto,
    examples: {
      attributes: {
        summary: 'change an attribute',
        value: { attributes: { pages: 124 }, note: 'pages counted again' },
      },
    },
  })
  @ApiCreatedResponse({ type: ObjectDto })
  @ApiErrors({ 400: BAD, 403: FORBIDDEN, 404: NOT_FOUND, 409: OLD, 503: OBJECT_BUSY_ANSWER })
  iterate(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: ObjectTypeQueryDto,
    @Body() body: NewIterationDto,
  ): Promise<ObjectDto> {
    return this.changes.iterate(user, params.ref, query.type, body);
  }

  @Post(':ref/revisions')
  @ApiOperation({
    summary: 'Make a new revision',
    description:
      'Iteration 1 of the next version (A → B, Z → AA), from the latest iteration, with its title, description, ' +
      'attributes, files and usage links, in the first state of the lifecycle (INWORK). Needs author or manager rights.',
  })
  @ApiParam({ name: 'ref', description: REF, example: 'P-00000002' })
  @ApiBody({
    type: NewRevisionDto,
    required: false,
    examples: { revise: { summary: 'with a comment', value: { note: 'revised for the new housing' } } },
  })
  @ApiCreatedResponse({ type: ObjectDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: `${OLD}; no version follows ZZZ`,
    503: OBJECT_BUSY_ANSWER,
  })
  revise(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: ObjectTypeQueryDto,
    @Body() body: NewRevisionDto,
  ): Promise<ObjectDto> {
    return this.changes.revise(user, params.ref, query.type, body);
  }

  @Post(':ref/state')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the lifecycle state',
    description:
      'Of the latest iteration, in place. Only the transitions of OBJECTS_LIFECYCLE are allowed (by default INWORK → ' +
      'UNDERREVIEW → RELEASED → OBSOLETE, and UNDERREVIEW → INWORK). Needs author or manager rights.',
  })
  @ApiParam({ name: 'ref', description: REF, example: '0000000002' })
  @ApiBody({
    type: StateChangeDto,
    examples: { release: { summary: 'release the test plan (under review)', value: { state: 'RELEASED' } } },
  })
  @ApiOkResponse({ type: ObjectDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: `the lifecycle does not allow the transition; ${OLD}`,
    503: OBJECT_BUSY_ANSWER,
  })
  setState(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: ObjectTypeQueryDto,
    @Body() body: StateChangeDto,
  ): Promise<ObjectDto> {
    return this.changes.setState(user, params.ref, query.type, body.state);
  }

  @Delete(':ref')
  @ApiOperation({
    summary: 'Delete a business object',
    description:
      'The object with all its iterations, their file references and usage links. Refused (409, naming them) ' +
      "while other objects' iterations use it, catalog links name it or other objects' JSON references name it, " +
      'unless force=true, which removes those links and references where the caller may change them (403 ' +
      'otherwise) and no other user holds the object using it, or owning the link (role A), checked out (409 ' +
      'naming the holder). Needs author or manager rights.',
  })
  @ApiParam({ name: 'ref', description: 'OID of any of its iterations, or its number', example: '0000000005' })
  @ApiExtraModels(DeletedPlainObjectDto)
  @ApiOkResponse({
    description: 'what was removed: of a versioned object (DeletedObjectDto) or a plain one (DeletedPlainObjectDto)',
    schema: { oneOf: [{ $ref: getSchemaPath(DeletedObjectDto) }, { $ref: getSchemaPath(DeletedPlainObjectDto) }] },
  })
  @ApiErrors({
    400: BAD,
    403: 'the caller may only read the container (or, with force, one using it)',
    404: NOT_FOUND,
    409:
      'other objects use it or reference it, or catalog links name it (force=true removes those); it, or with ' +
      'force an object using it or owning a link naming it, is checked out by another user (the message names them)',
    503: OBJECT_BUSY_ANSWER,
  })
  remove(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: DeleteObjectQueryDto,
  ): Promise<DeletedObjectDto | DeletedPlainObjectDto> {
    return this.changes.removeAny(user, params.ref, query.type, query.force === 'true');
  }
}
