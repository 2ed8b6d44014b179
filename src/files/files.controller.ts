import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ReadsOnly } from '../auth/reads-only.decorator.js';
import contentDisposition from 'content-disposition';
import type { Request, Response } from 'express';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, ApiVersion, OBJECT_BUSY_ANSWER } from '../common/api-docs.decorators.js';
import { baseUrl } from '../common/public-url.js';
import { AnswersRuntime, type WithoutRuntime } from '../common/answers-runtime.js';
import { versionRecord, type VersionRecord } from '../common/version.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import {
  CollectFilesBodyDto,
  DeleteFileQueryDto,
  FileHolderParamsDto,
  FileParamsDto,
  HolderTypeQueryDto,
  ListFilesQueryDto,
  UploadFileBodyDto,
  WriteFileQueryDto,
} from './dto/files-request.dto.js';
import { FileListDto, FileWriteResultDto } from './dto/files-response.dto.js';
import { sendFile } from './download/file-download.js';
import { checkedFileName, mergeWriteOptions, parseHolderRef } from './files.params.js';
import { FilesService, type FileChangeResult, type FileTarget, type UploadContent } from './files.service.js';
import { FilesZipService, type ZipAnswer } from './files-zip.service.js';
import { changeConditions, digestHeaders, parseUploadBody, uploadKind } from './files.request.js';

const ERRORS = {
  badRequest: 'bad parameter, file name, OID, role, body, base64 or header',
  notFound: 'unknown object (or one the caller may not read), or no such file',
  forbidden: 'the caller may only read the container',
  conflict: 'the OID names an iteration that is not the latest (read-only)',
  precondition: 'If-Match / If-None-Match did not hold',
  storeDown: 'the file store (vault or bucket) is unavailable (Retry-After: 5)',
};

@ApiTags('files')
@ApiAuthenticated()
@ApiExtraModels(UploadFileBodyDto)
@Controller('files')
export class FilesController {
  constructor(
    private readonly files: FilesService,
    private readonly zips: FilesZipService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('version')
  @ApiVersion('files')
  version(): VersionRecord {
    return versionRecord();
  }

  @Get(':oid_or_number')
  @ApiOperation({
    summary: 'List the files of a business object, or download them as one ZIP',
    description:
      'Lists the files of one role (default SECONDARY) or of all roles. Needs read rights. format=zip answers the ' +
      'files themselves (of all roles unless role is given) in one ZIP archive with a manifest.json (object, ' +
      'version, and each file with its role, size and SHA-256); 400 before the first byte when they pass ' +
      'FILES_ZIP_MAX_BYTES. A ZIP is made anew for every request: to retry, ask again.',
  })
  @ApiProduces('application/json', 'application/zip')
  @ApiOkResponse({
    description: 'the list (JSON), or with format=zip the ZIP archive',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(FileListDto) } },
      'application/zip': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiExtraModels(FileListDto)
  @AnswersRuntime()
  @ApiErrors({ 400: ERRORS.badRequest + '; a ZIP past FILES_ZIP_MAX_BYTES', 404: ERRORS.notFound })
  async list(
    @CurrentUser() user: AuthUser,
    @Param() params: FileHolderParamsDto,
    @Query() query: ListFilesQueryDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<FileListDto> | StreamableFile> {
    const ref = parseHolderRef(params.oid_or_number, query.type);
    if (query.format === 'zip') {
      const role = query.role === undefined || query.role === 'all' ? null : query.role;
      return zipFile(await this.zips.objectZip(user, ref, role));
    }
    return this.files.list(user, ref, query.role ?? 'SECONDARY', this.link(req, query));
  }

  @Post('collect')
  @ReadsOnly()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Download the files of related objects as one ZIP',
    description:
      'From a root (an assembly, a CAD document, a document, a change order or activity), follows what `follow` ' +
      'names: structure (part usage links, `levels` deep), members (CAD members), documents (describing and ' +
      'referenced documents), drawings (CAD documents built from a part), affected (the affected objects of a ' +
      'change, followed like the root). Answers one ZIP, streamed: a folder per object and a manifest.json ' +
      '(object, version, files with their SHA-256); objects in containers the caller may not read are absent and ' +
      'listed as restricted, without their number. Limits (FILES_ZIP_MAX_OBJECTS, FILES_ZIP_MAX_BYTES) are ' +
      'checked before the first byte (400, saying what to narrow). A ZIP is made anew for every request: to ' +
      'retry, ask again.',
  })
  @ApiProduces('application/zip')
  @ApiOkResponse({ description: 'the ZIP archive', schema: { type: 'string', format: 'binary' } })
  @ApiErrors({
    400: 'bad body, unknown role, or a collection past FILES_ZIP_MAX_OBJECTS or FILES_ZIP_MAX_BYTES (the message says what to narrow)',
    404: 'unknown root (or one the caller may not read)',
  })
  async collect(@CurrentUser() user: AuthUser, @Body() body: CollectFilesBodyDto): Promise<StreamableFile> {
    return zipFile(await this.zips.collect(user, body));
  }

  @Get(':oid_or_number/:filename')
  @ApiOperation({
    summary: 'Download a file',
    description:
      'The raw bytes (not JSON), streamed. ETag is the quoted SHA-256; If-None-Match → 304, If-Match → 412, ' +
      'one byte Range → 206 (416 outside the file), If-Range honoured. HEAD gives the headers only. ' +
      'HTML, SVG, XML and other active types are sent as attachments under a sandboxing Content-Security-Policy.',
  })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'the file content', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 206, description: 'the requested byte range', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 304, description: 'If-None-Match matched the ETag' })
  @ApiErrors({
    400: ERRORS.badRequest,
    404: ERRORS.notFound,
    412: ERRORS.precondition,
    416: 'the range lies outside the file',
    502: 'the file store does not hold the content of the file (missing or damaged): the message names the file',
    503: ERRORS.storeDown,
  })
  async download(
    @CurrentUser() user: AuthUser,
    @Param() params: FileParamsDto,
    @Query() query: HolderTypeQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ref = parseHolderRef(params.oid_or_number, query.type);
    const file = await this.files.find(user, ref, checkedFileName(params.filename));
    await sendFile(req, res, file, {
      open: (range) => this.files.read(file, range),
      check: () => this.files.check(file),
    });
  }

  @Post(':oid_or_number/:filename')
  @ApiOperation({
    summary: 'Create or update a file',
    description:
      'Body: JSON {"data": base64, "message", "role", "iterate", "mimetype"}, or the raw bytes with ' +
      'Content-Type: application/octet-stream. role, iterate, message and mimetype may also be URL ' +
      'parameters; the JSON body wins when both are given. A new file gets role SECONDARY unless told ' +
      'otherwise; an existing file keeps its role unless one is given. 201 when created, 200 when updated. ' +
      'Needs author or manager rights in the container.',
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: { $ref: getSchemaPath(UploadFileBodyDto) } },
        'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
      },
    },
  })
  @ApiHeader({
    name: 'Digest',
    required: false,
    description: 'sha-256=<base64> and/or md5=<base64> of the file content: verified',
  })
  @ApiHeader({ name: 'Content-MD5', required: false, description: 'base64 MD5 of the file content: verified' })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: '"<sha256>": change only if the file still has this content',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: '*: create only, never overwrite' })
  @ApiParam({ name: 'filename', description: 'file name, URL-encoded (compared in Unicode NFC)', example: 'hello.txt' })
  @ApiCreatedResponse({ description: 'the file was created', type: FileWriteResultDto })
  @ApiOkResponse({ description: 'the file was updated', type: FileWriteResultDto })
  @ApiErrors({
    400: ERRORS.badRequest,
    403: ERRORS.forbidden,
    404: ERRORS.notFound,
    409: ERRORS.conflict,
    412: ERRORS.precondition,
    413: 'the file exceeds FILES_MAX_SIZE',
    415: 'neither JSON nor application/octet-stream',
    503: `${OBJECT_BUSY_ANSWER}; or ${ERRORS.storeDown}`,
  })
  async upload(
    @CurrentUser() user: AuthUser,
    @Param() params: FileParamsDto,
    @Query() query: WriteFileQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileWriteResultDto> {
    const target = this.target(req, params, query);
    const kind = uploadKind(req);
    const body = kind === 'json' ? parseUploadBody(req.body) : undefined;
    const options = mergeWriteOptions(body ?? {}, query);
    const content: UploadContent = body
      ? { kind: 'base64', data: body.data }
      : { kind: 'stream', body: req, length: declaredLength(req) };
    const result = await this.files.save(user, target, options, content, changeConditions(req), digestHeaders(req));
    return this.answer(res, result, result.created ? HttpStatus.CREATED : HttpStatus.OK);
  }

  @Delete(':oid_or_number/:filename')
  @ApiOperation({
    summary: 'Delete a file',
    description:
      'iterate=true makes a new iteration first and deletes the file there (the older iteration keeps it). ' +
      'message is accepted as for POST. If-Match makes the deletion conditional. Needs author or manager rights.',
  })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: '"<sha256>": delete only if the file still has this content',
  })
  @ApiParam({ name: 'filename', description: 'file name, URL-encoded (compared in Unicode NFC)', example: 'hello.txt' })
  @ApiOkResponse({ type: FileWriteResultDto })
  @ApiErrors({
    400: ERRORS.badRequest,
    403: ERRORS.forbidden,
    404: ERRORS.notFound,
    409: ERRORS.conflict,
    412: ERRORS.precondition,
    503: OBJECT_BUSY_ANSWER,
  })
  async remove(
    @CurrentUser() user: AuthUser,
    @Param() params: FileParamsDto,
    @Query() query: DeleteFileQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileWriteResultDto> {
    const target = this.target(req, params, query);
    const result = await this.files.remove(user, target, query.iterate === 'true', changeConditions(req));
    return this.answer(res, result, HttpStatus.OK);
  }

  private target(req: Request, params: FileParamsDto, query: HolderTypeQueryDto): FileTarget {
    return {
      ref: parseHolderRef(params.oid_or_number, query.type),
      fileName: checkedFileName(params.filename),
      link: this.link(req, query),
    };
  }

  /** Links keep the caller's `type`, so that they name the same object again. */
  private link(req: Request, query: HolderTypeQueryDto) {
    return { base: baseUrl(req, this.config), query: query.type ? `?type=${encodeURIComponent(query.type)}` : '' };
  }

  private answer(res: Response, result: FileChangeResult, status: number): FileWriteResultDto {
    res.status(status);
    if (status === HttpStatus.CREATED) res.setHeader('Location', result.url);
    if (result.sha256) res.setHeader('ETag', `"${result.sha256}"`);
    return { success: true, oid: result.oid, url: result.url, holder: result.holder };
  }
}

/** A ZIP answer: its length is known, it is not cached, and it is saved rather than shown. */
function zipFile(zip: ZipAnswer): StreamableFile {
  return new StreamableFile(zip.stream, {
    type: 'application/zip',
    length: zip.length,
    disposition: contentDisposition(zip.fileName, { fallback: zip.fileName.replace(/[^\x20-\x7e]/g, '_') }),
  });
}

function declaredLength(req: Request): number | undefined {
  const header = req.get('content-length');
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}
