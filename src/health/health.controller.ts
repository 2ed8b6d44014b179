import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/public.decorator.js';
import { HealthService, type Readiness } from './health.service.js';

/** Probes for orchestrators and load balancers: no credentials needed, nothing revealed. */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @ApiOperation({ summary: 'The process is up' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'The database answers and all migrations are applied' })
  @ApiOkResponse({ schema: { example: { status: 'ok', database: 'up', migrations: 'applied' } } })
  @ApiServiceUnavailableResponse({
    schema: { example: { status: 'unavailable', database: 'down', migrations: 'unknown' } },
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    const r = await this.health.readiness();
    if (r.status !== 'ok') res.status(503).setHeader('Retry-After', '5');
    return r;
  }
}
