import { Controller, Delete, Head, Options, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../auth/auth-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../../common/api-docs.decorators.js';
import { StreamedBody } from '../../common/request-body.reader.js';
import { BAD_UPLOAD_ID, TusUploadParamDto } from '../dto/tus-upload-param.dto.js';
import { TUS_LOCK_TIMEOUT_MS } from './tus-pg-locker.js';
import { TusUploadsService } from './tus-uploads.service.js';

const TUS_RESUMABLE = {
  name: 'Tus-Resumable',
  required: true,
  description: 'the tus protocol version: 1.0.0 (412 without it)',
  schema: { type: 'string', example: '1.0.0' },
};
const NOT_YOURS = 'no such upload of the caller (unknown, expired, completed, or another user’s)';
/** The error envelope, as for the tus server's other protocol errors (tus-errors.ts). */
const LOCKED = {
  status: 423,
  description: `another request for the upload (on any instance) did not let go of it within ${TUS_LOCK_TIMEOUT_MS / 1000} s: try again (HEAD says where to resume)`,
};

/**
 * The tus protocol (https://tus.io/protocols/resumable-upload, version 1.0.0 with the creation,
 * creation-with-upload, termination and expiration extensions) under /files/tus. The routes
 * are here, behind the global authentication guard like every other (no body is read before
 * it); the requests are handed as they are to the tus server (TusUploadsService). See
 * docs/files.md, "Resumable uploads".
 */
@ApiTags('files')
@ApiAuthenticated()
@Controller('files/tus')
export class TusUploadsController {
  constructor(private readonly uploads: TusUploadsService) {}

  @Post()
  @StreamedBody()
  @ApiOperation({
    summary: 'Create a resumable upload (tus)',
    description:
      'Starts a tus upload of one file: Upload-Length is the size of the whole file; Upload-Metadata names the ' +
      'file with base64 values: ref (OID or number of the object), filename, and optionally type, role, iterate ' +
      '(true/false), message, mimetype, as for a raw upload. Needs author or manager rights on the object now ' +
      '(checked again on completion). 201 with Location: the address of the upload, for PATCH and HEAD. ' +
      'Unfinished uploads expire after FILES_TUS_EXPIRY_MS and count against FILES_TUS_USER_MAX_BYTES and ' +
      'FILES_TUS_USER_MAX_UPLOADS. A body of Content-Type application/offset+octet-stream is its first part.',
  })
  @ApiHeader(TUS_RESUMABLE)
  @ApiHeader({
    name: 'Upload-Length',
    required: true,
    description: 'size of the whole file in bytes',
    schema: { type: 'string', example: '5' },
  })
  @ApiHeader({
    name: 'Upload-Metadata',
    required: true,
    description: 'comma-separated "key base64(value)": ref, filename; optional type, role, iterate, message, mimetype',
    schema: { type: 'string', example: 'ref MDAwMDAwMDAwMQ==,filename dHVzLWhlbGxvLnR4dA==' },
  })
  @ApiResponse({ status: 201, description: 'the upload was created: its address is in Location' })
  @ApiErrors({
    400: 'Upload-Length or Upload-Metadata missing or bad (file name, role, type, iterate, mimetype)',
    403: 'the caller may only read the container',
    404: 'unknown object (or one the caller may not read)',
    409: 'the OID names an iteration that is not the latest (read-only)',
    413: 'the file exceeds FILES_MAX_SIZE, or the caller’s unfinished uploads would exceed their limits',
  })
  create(@CurrentUser() user: AuthUser, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.uploads.create(user, req, res);
  }

  @Options()
  @ApiOperation({
    summary: 'What the tus server supports',
    description: 'Tus-Version, Tus-Extension and Tus-Max-Size (FILES_MAX_SIZE); 204.',
  })
  @ApiResponse({ status: 204, description: 'the Tus-* headers' })
  options(@CurrentUser() user: AuthUser, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.uploads.options(user, req, res);
  }

  @Head(':id')
  @ApiOperation({
    summary: 'Where to resume a resumable upload (tus)',
    description:
      'Upload-Offset: how many bytes the server holds; resume with a PATCH from there. Upload-Length: the size ' +
      'of the file. Only the creator of the upload sees it.',
  })
  @ApiHeader(TUS_RESUMABLE)
  @ApiResponse({ status: 200, description: 'Upload-Offset and Upload-Length headers, no body' })
  @ApiErrors({ 400: BAD_UPLOAD_ID, 404: NOT_YOURS })
  @ApiResponse(LOCKED)
  head(
    @CurrentUser() user: AuthUser,
    @Param() { id }: TusUploadParamDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.uploads.resume(user, id, req, res);
  }

  @Patch(':id')
  @StreamedBody()
  @ApiOperation({
    summary: 'Send a part of a resumable upload (tus)',
    description:
      'Body: the next bytes (Content-Type: application/offset+octet-stream), from Upload-Offset, which must be ' +
      'the offset the server holds (409 otherwise: ask with HEAD). 204 with the new Upload-Offset. The part ' +
      'that completes the file writes it as a raw upload would (same checks, digest, audit event) and is ' +
      'answered 200 with the raw upload’s JSON answer (success, oid, url, holder), or with its error.',
    requestBody: {
      required: true,
      content: { 'application/offset+octet-stream': { schema: { type: 'string', example: 'hello' } } },
    },
  })
  @ApiHeader(TUS_RESUMABLE)
  @ApiHeader({
    name: 'Upload-Offset',
    required: true,
    description: 'where this part starts',
    schema: { type: 'string', example: '0' },
  })
  @ApiResponse({ status: 200, description: 'the last part: the file was written (JSON as for a raw upload)' })
  @ApiResponse({ status: 204, description: 'the part was stored: the new Upload-Offset' })
  @ApiErrors({
    400: `${BAD_UPLOAD_ID}; Content-Type is not application/offset+octet-stream, or a tus header is malformed`,
    403: 'the caller may no longer write the object (checked on completion)',
    404: NOT_YOURS,
    409: 'Upload-Offset is not the offset the server holds',
    413: 'the part goes past Upload-Length',
  })
  @ApiResponse(LOCKED)
  patch(
    @CurrentUser() user: AuthUser,
    @Param() { id }: TusUploadParamDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.uploads.resume(user, id, req, res);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Terminate a resumable upload (tus)',
    description: 'Drops the upload and the bytes received so far; 204.',
  })
  @ApiHeader(TUS_RESUMABLE)
  @ApiResponse({ status: 204, description: 'the upload is gone' })
  @ApiErrors({ 400: BAD_UPLOAD_ID, 404: NOT_YOURS })
  @ApiResponse(LOCKED)
  terminate(
    @CurrentUser() user: AuthUser,
    @Param() { id }: TusUploadParamDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.uploads.resume(user, id, req, res);
  }
}
