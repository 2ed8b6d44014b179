import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, OBJECT_BUSY_ANSWER } from '../common/api-docs.decorators.js';
import { CadService } from './cad.service.js';
import {
  CadAttributesDto,
  CadLinkDto,
  CadLinkParamsDto,
  CadRefParamDto,
  LinkChangeBodyDto,
  MergeAttributesBodyDto,
  NumberUsedLinksDto,
  NumberUsedQueryDto,
  ReadAttributesQueryDto,
} from './dto/cad.dto.js';

const BAD = 'bad parameter or body (the message names it), or not a CAD document';
const NOT_FOUND =
  'no such CAD document (or one the caller may not read), or no such link (a member the caller may not read, named by its number, is none)';
const FORBIDDEN = 'the caller may only read the container';

@ApiTags('numbers')
@ApiAuthenticated()
@Controller('numbers')
export class CadController {
  constructor(private readonly cad: CadService) {}

  @Get('attributes/:oid_or_number')
  @ApiOperation({
    summary: 'Custom attributes of a CAD document',
    description:
      'The attributes of the iteration (a number names the latest iteration of the CAD document); with ' +
      'links=yes also the links of its used relation (EPMMemberLink) with quantity, line number, reference ' +
      'number and attributes. Link ids are stable for the current iteration only. A member in a container the ' +
      'caller may not read is shown as { oid: null, number: null, restricted: true }, in every answer of these ' +
      'operations. Needs read rights.',
  })
  @ApiOkResponse({ type: CadAttributesDto })
  @ApiErrors({ 400: BAD, 404: NOT_FOUND })
  read(
    @CurrentUser() user: AuthUser,
    @Param() params: CadRefParamDto,
    @Query() query: ReadAttributesQueryDto,
  ): Promise<CadAttributesDto> {
    return this.cad.read(user, params.oid_or_number, query.links === 'yes');
  }

  @Post('attributes/:oid_or_number')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Merge custom attributes into a CAD document',
    description:
      'Sets the given attributes, removes those given as null, keeps the others, on the latest iteration or, ' +
      'with iterate=true, on a new iteration (files and links are carried over, as the file service does). ' +
      'message is kept as the note of the changed iteration. Needs author or manager rights.',
  })
  @ApiOkResponse({ type: CadAttributesDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: 'the OID names an iteration that is not the latest',
    503: OBJECT_BUSY_ANSWER,
  })
  merge(
    @CurrentUser() user: AuthUser,
    @Param() params: CadRefParamDto,
    @Body() body: MergeAttributesBodyDto,
  ): Promise<CadAttributesDto> {
    return this.cad.merge(user, params.oid_or_number, body);
  }

  @Post('attributes/:oid_or_number/:link')
  @HttpCode(200)
  @ApiOperation({
    summary: "Set a used link's line number, reference number and attributes",
    description:
      'On the latest iteration of the CAD document. lineNumber must not be the line number of another link of ' +
      'the document (409); attributes are merged (null removes one). Needs author or manager rights.',
  })
  @ApiOkResponse({ type: CadLinkDto })
  @ApiErrors({
    400: BAD,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: 'the line number is taken, or the link reference is ambiguous',
    503: OBJECT_BUSY_ANSWER,
  })
  changeLink(
    @CurrentUser() user: AuthUser,
    @Param() params: CadLinkParamsDto,
    @Body() body: LinkChangeBodyDto,
  ): Promise<CadLinkDto> {
    return this.cad.changeLink(user, params.oid_or_number, params.link, body);
  }

  @Delete('attributes/:oid_or_number/:link')
  @ApiOperation({
    summary: "Clear a used link's attributes",
    description: 'Line number and reference number stay. Needs author or manager rights.',
  })
  @ApiOkResponse({ type: CadLinkDto })
  @ApiErrors({ 400: BAD, 403: FORBIDDEN, 404: NOT_FOUND, 503: OBJECT_BUSY_ANSWER })
  clearLink(@CurrentUser() user: AuthUser, @Param() params: CadLinkParamsDto): Promise<CadLinkDto> {
    return this.cad.changeLink(user, params.oid_or_number, params.link, null);
  }

  @Post('used/:oid_or_number')
  @HttpCode(200)
  @ApiOperation({
    summary: "Number the links of a CAD assembly's used relation",
    description:
      'Gives line numbers start, start + step, … to the links of a CADASSEMBLY: mode=missing numbers only links ' +
      'without one, on from the highest existing line number; mode=all renumbers every link, ordered by its ' +
      'current line number, then member number. One transaction holding the assembly: concurrent calls never ' +
      'give two links the same number. No request body. Needs author or manager rights.',
  })
  @ApiOkResponse({ type: NumberUsedLinksDto })
  @ApiErrors({
    400: 'bad parameter, or not a CADASSEMBLY (the message names its subtype)',
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: 'the OID names an iteration that is not the latest',
    503: OBJECT_BUSY_ANSWER,
  })
  numberUsed(
    @CurrentUser() user: AuthUser,
    @Param() params: CadRefParamDto,
    @Query() query: NumberUsedQueryDto,
  ): Promise<NumberUsedLinksDto> {
    return this.cad.numberUsedLinks(user, params.oid_or_number, {
      mode: query.mode ?? 'missing',
      start: query.start === undefined ? 10 : Number(query.start),
      step: query.step === undefined ? 10 : Number(query.step),
    });
  }
}
