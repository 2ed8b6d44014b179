import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

export interface RootLinks {
  docs: string;
  openapi: string;
  health: string;
}

/**
 * `GET /` (under BASE_PATH): a first visitor is sent to Swagger UI; a client that does not follow
 * redirects reads the same links in the body. Public: it reveals nothing the docs do not.
 */
@ApiExcludeController()
@Public()
@Controller()
export class RootController {
  private readonly links: RootLinks;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const base = config.basePath;
    this.links = { docs: `${base}/docs`, openapi: `${base}/docs-json`, health: `${base}/health/ready` };
  }

  @Get()
  root(@Res({ passthrough: true }) res: Response): RootLinks {
    res.status(302).location(this.links.docs);
    return this.links;
  }
}
