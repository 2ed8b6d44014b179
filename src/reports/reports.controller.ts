import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiVersion } from '../common/api-docs.decorators.js';
import { versionRecord, type VersionRecord } from '../common/version.js';

@ApiTags('reports')
@ApiAuthenticated()
@Controller('reports')
export class ReportsController {
  @Get('version')
  @ApiVersion('reports')
  version(): VersionRecord {
    return versionRecord();
  }
}
