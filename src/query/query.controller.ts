import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiVersion } from '../common/api-docs.decorators.js';
import { versionRecord, type VersionRecord } from '../common/version.js';

@ApiTags('query')
@ApiAuthenticated()
@Controller('query')
export class QueryController {
  @Get('version')
  @ApiVersion('query')
  version(): VersionRecord {
    return versionRecord();
  }
}
