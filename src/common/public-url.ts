import type { Request } from 'express';

/** The settings of AppConfig the address is made of (common/ depends on no other module). */
export interface PublicUrlConfig {
  publicUrl: string;
  basePath: string;
  port: number;
}

/**
 * The absolute base address for links in responses (`url` fields): PUBLIC_URL when set
 * (behind a proxy), else the request's own protocol and Host, followed by BASE_PATH.
 */
export function baseUrl(req: Request, config: PublicUrlConfig): string {
  if (config.publicUrl) return `${config.publicUrl}${config.basePath}`;
  const host = req.get('host') ?? `localhost:${config.port}`;
  return `${req.protocol}://${host}${config.basePath}`;
}
