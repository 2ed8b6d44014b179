import { Body, Controller, Delete, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../auth/auth-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, OBJECT_BUSY_ANSWER } from '../../common/api-docs.decorators.js';
import { ObjectTypeQueryDto, UseParamsDto } from '../dto/object-request.dto.js';
import { ObjectUseDto } from '../dto/object-response.dto.js';
import { AddUseDto, ChangeUseDto, RemoveUseQueryDto } from '../dto/usage-link-request.dto.js';
import { ObjectRefParamDto } from '../dto/structure-query.dto.js';
import { parseObjectRef } from '../../catalog/object-ref.js';
import { UsageLinksService } from './usage-links.service.js';

const REF = 'OID of the latest iteration, or the number of a part or CAD assembly';
const BAD = 'bad parameter or body (the message names the field); an object that uses nothing';
const FORBIDDEN = 'the caller may only read the container';
const IN_PLACE =
  'The latest iteration is changed in place, as a file change is; with iterate=true a new iteration is made first ' +
  '(the older one keeps its links). Needs author or manager rights.';

@ApiTags('objects')
@ApiAuthenticated()
@Controller('objects/:ref/uses')
export class UsageLinksController {
  constructor(private readonly links: UsageLinksService) {}

  @Post()
  @ApiOperation({
    summary: 'Add a usage link',
    description:
      'The object (a part, or a CAD assembly) uses `member` (a part, or a CAD document), which the caller must be ' +
      "able to read. Refused when the member's structure contains the object (a cycle), or for the object itself. " +
      IN_PLACE,
  })
  @ApiParam({ name: 'ref', description: REF, example: 'P-00000001' })
  @ApiBody({
    type: AddUseDto,
    examples: {
      part: {
        summary: 'the drive unit uses its firmware',
        value: { member: 'P-00000003', quantity: 1, lineNumber: 40 },
      },
    },
  })
  @ApiCreatedResponse({ type: ObjectUseDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: 'no such object, or member, the caller may read',
    409: 'a cycle; a line number the iteration has; an old iteration',
    503: OBJECT_BUSY_ANSWER,
  })
  add(
    @CurrentUser() user: AuthUser,
    @Param() params: ObjectRefParamDto,
    @Query() query: ObjectTypeQueryDto,
    @Body() body: AddUseDto,
  ): Promise<ObjectUseDto> {
    return this.links.add(user, parseObjectRef(params.ref, query.type), body);
  }

  @Patch(':link')
  @ApiOperation({ summary: 'Change a usage link', description: `Its quantity, unit or line number. ${IN_PLACE}` })
  @ApiParam({ name: 'ref', description: REF, example: 'P-00000001' })
  @ApiParam({
    name: 'link',
    description: 'link id or OID, or the number of the object it uses (once)',
    example: 'P-00000003',
  })
  @ApiBody({
    type: ChangeUseDto,
    examples: { quantity: { summary: 'two of them', value: { quantity: 2, lineNumber: 45 } } },
  })
  @ApiOkResponse({ type: ObjectUseDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: 'no such object the caller may read, or no such link',
    409: 'a line number the iteration has; several links to the member; an old iteration',
    503: OBJECT_BUSY_ANSWER,
  })
  update(
    @CurrentUser() user: AuthUser,
    @Param() params: UseParamsDto,
    @Query() query: ObjectTypeQueryDto,
    @Body() body: ChangeUseDto,
  ): Promise<ObjectUseDto> {
    return this.links.update(user, parseObjectRef(params.ref, query.type), params.link, body);
  }

  @Delete(':link')
  @ApiOperation({ summary: 'Remove a usage link', description: `Answers the link removed. ${IN_PLACE}` })
  @ApiParam({ name: 'ref', description: REF, example: 'P-00000001' })
  @ApiParam({
    name: 'link',
    description: 'link id or OID, or the number of the object it uses (once)',
    example: 'P-00000003',
  })
  @ApiOkResponse({ type: ObjectUseDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: 'no such object the caller may read, or no such link',
    409: 'several links to the member; an old iteration',
    503: OBJECT_BUSY_ANSWER,
  })
  remove(
    @CurrentUser() user: AuthUser,
    @Param() params: UseParamsDto,
    @Query() query: RemoveUseQueryDto,
  ): Promise<ObjectUseDto> {
    return this.links.remove(user, parseObjectRef(params.ref, query.type), params.link, query.iterate === 'true');
  }
}
