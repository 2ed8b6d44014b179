import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { UPLOAD_ID } from '../tus/tus-request.js';

export const BAD_UPLOAD_ID =
  'id must be an upload id: 32 lowercase hexadecimal digits, as the Location of its creation names it';

// No example: an upload's id is random, made by its creation (Swagger UI's user types the one
// the Location of theirs named).
/** A path's `:id` of a resumable upload (HEAD, PATCH, DELETE files/tus/:id). */
export class TusUploadParamDto {
  @ApiProperty({ description: 'the upload, as the Location of its creation names it' })
  @IsString()
  @Matches(UPLOAD_ID, { message: BAD_UPLOAD_ID })
  id!: string;
}
