import { applyDecorators, Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { AnswersRuntime, type WithoutRuntime } from '../common/answers-runtime.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { baseUrl } from '../common/public-url.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ObjectItemParamDto, ObjectListQueryDto } from './dto/object-api-query.dto.js';
import { ObjectItemDto, ObjectListDto } from './dto/object-api-response.dto.js';
import { API_LIMIT_MAX, OBJECT_RESOURCES, type ObjectResource } from './object-api-params.js';
import { ObjectApiService } from './object-api.service.js';

const LIST_ABOUT =
  'Pointers ({oid, name, number, url}) to the latest iteration of each object of the class, its subclasses and ' +
  'soft types, in containers the caller may read, by number. `name` and `number` take `*` and `?`; ' +
  `\`limit\` 1 to ${API_LIMIT_MAX} (default 100), \`start\` skips items. The original gateway's object API.`;
const ITEM_ABOUT =
  'One iteration in the original gateway’s item shape: named by its OID, by the VR: reference of its version ' +
  '(that version’s latest iteration) or by its number (the latest iteration). Needs read rights.';
const LIST_ERRORS = { 400: 'bad parameter; the message names it' };
const ITEM_ERRORS = {
  400: 'a malformed OID, an OID of a class the resource does not list, or a number several of its classes carry',
  404: 'no such object the caller may read',
};

function ListOf(resource: ObjectResource, what: string) {
  return applyDecorators(
    AnswersRuntime(),
    Get(resource),
    ApiOperation({ summary: `List ${what} (${OBJECT_RESOURCES[resource]})`, description: LIST_ABOUT }),
    ApiOkResponse({ type: ObjectListDto }),
    ApiErrors(LIST_ERRORS),
  );
}

/** Numbers of the demo data: OIDs depend on the order objects were made in. */
const EXAMPLES: Record<ObjectResource, string> = {
  documents: '0000000001',
  epmdocuments: '0000500001',
  parts: 'P-00000001',
};

function ItemOf(resource: ObjectResource, what: string) {
  return applyDecorators(
    AnswersRuntime(),
    Get(`${resource}/:oid`),
    ApiOperation({ summary: `Read ${what}`, description: ITEM_ABOUT }),
    ApiParam({
      name: 'oid',
      description: `OID (OR:${OBJECT_RESOURCES[resource]}:<id>, unencoded), VR: reference of a version, or number`,
      example: EXAMPLES[resource],
    }),
    ApiOkResponse({ type: ObjectItemDto }),
    ApiErrors(ITEM_ERRORS),
  );
}

/** api/1.0/documents, epmdocuments, parts: the object API clients of the original gateway call. */
@ApiTags('object-api')
@ApiAuthenticated()
@Controller('api/1.0')
export class ObjectApiController {
  constructor(
    private readonly service: ObjectApiService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ListOf('documents', 'documents')
  documents(
    @CurrentUser() user: AuthUser,
    @Query() q: ObjectListQueryDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<ObjectListDto>> {
    return this.service.list(user, 'documents', q, baseUrl(req, this.config));
  }

  @ItemOf('documents', 'a document')
  document(
    @CurrentUser() user: AuthUser,
    @Param() p: ObjectItemParamDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<ObjectItemDto>> {
    return this.service.read(user, 'documents', p.oid, baseUrl(req, this.config));
  }

  @ListOf('epmdocuments', 'CAD documents')
  epmDocuments(
    @CurrentUser() user: AuthUser,
    @Query() q: ObjectListQueryDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<ObjectListDto>> {
    return this.service.list(user, 'epmdocuments', q, baseUrl(req, this.config));
  }

  @ItemOf('epmdocuments', 'a CAD document')
  epmDocument(
    @CurrentUser() user: AuthUser,
    @Param() p: ObjectItemParamDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<ObjectItemDto>> {
    return this.service.read(user, 'epmdocuments', p.oid, baseUrl(req, this.config));
  }

  @ListOf('parts', 'parts')
  parts(
    @CurrentUser() user: AuthUser,
    @Query() q: ObjectListQueryDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<ObjectListDto>> {
    return this.service.list(user, 'parts', q, baseUrl(req, this.config));
  }

  @ItemOf('parts', 'a part')
  part(
    @CurrentUser() user: AuthUser,
    @Param() p: ObjectItemParamDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<ObjectItemDto>> {
    return this.service.read(user, 'parts', p.oid, baseUrl(req, this.config));
  }
}
