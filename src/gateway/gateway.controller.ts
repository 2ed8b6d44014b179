import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AnswersRuntime, type WithoutRuntime } from '../common/answers-runtime.js';
import { ApiAuthenticated } from '../common/api-docs.decorators.js';
import { baseUrl } from '../common/public-url.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { GatewayVersionDto, PluginIndexDto } from './dto/gateway.dto.js';
import { GatewayService } from './gateway.service.js';
import { pluginIndexHtml } from './plugin-index-html.js';

/**
 * The root records clients of the original gateway read (docs/gateway.md): `version` and the
 * plug-in index. Served under BASE_PATH, and under GATEWAY_BASE_PATH through its aliases.
 */
@ApiTags('gateway')
@ApiAuthenticated()
@Controller()
export class GatewayController {
  constructor(
    private readonly gateway: GatewayService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('version')
  @ApiOperation({
    summary: 'Version record of the service as a whole (the gateway root record)',
    description:
      '`version` is the level of the original gateway interface offered (dotted integers, at least 1.5); ' +
      "each service's own version is at `<service>/version`.",
  })
  @ApiHeader({
    name: 'nexiles-gateway-reload',
    required: false,
    description: 'accepted and ignored (the original gateway reloaded its plug-ins)',
  })
  @ApiOkResponse({ type: GatewayVersionDto })
  version(): GatewayVersionDto {
    return this.gateway.version();
  }

  @Get('plugins/index.json')
  @ApiOperation({ summary: 'The services, as the gateway listed its plug-ins' })
  @ApiOkResponse({ type: PluginIndexDto })
  @AnswersRuntime()
  index(@Req() req: Request): WithoutRuntime<PluginIndexDto> {
    const items = this.gateway.plugins(baseUrl(req, this.config));
    return { count: items.length, items };
  }

  @Get('plugins/index.html')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiOperation({ summary: 'The services as an HTML table' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the plug-in index as an HTML page', schema: { type: 'string' } })
  indexHtml(@Req() req: Request): string {
    return pluginIndexHtml(this.gateway.plugins(baseUrl(req, this.config)));
  }
}
