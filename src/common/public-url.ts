import type { Request } from 'express';
import type { AppConfig } from '../config/app-config.js';

/**
 * The absolute base address for links in responses (`url` fields): PUBLIC_URL when set
 * (behind a proxy), else the request's own protocol and Host, followed by BASE_PATH.
 */
export function baseUrl(req: Request, config: AppConfig): string {
  if (config.publicUrl) return `${config.publicUrl}${config.basePath}`;
  const host = req.get('host') ?? `localhost:${config.port}`;
  return `${req.protocol}://${host}${config.basePath}`;
}
