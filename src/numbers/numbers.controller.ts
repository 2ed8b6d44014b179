import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiVersion } from '../common/api-docs.decorators.js';
import { versionRecord, type VersionRecord } from '../common/version.js';

@ApiTags('numbers')
@ApiAuthenticated()
@Controller('numbers')
export class NumbersController {
  @Get('version')
  @ApiVersion('numbers')
  version(): VersionRecord {
    return versionRecord();
  }
}
