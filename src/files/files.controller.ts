import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiVersion } from '../common/api-docs.decorators.js';
import { versionRecord, type VersionRecord } from '../common/version.js';

@ApiTags('files')
@ApiAuthenticated()
@Controller('files')
export class FilesController {
  @Get('version')
  @ApiVersion('files')
  version(): VersionRecord {
    return versionRecord();
  }
}
