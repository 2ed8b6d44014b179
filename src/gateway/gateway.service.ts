import { Injectable } from '@nestjs/common';
import { SERVICE_ROUTES } from '../common/service-routes.js';
import { versionRecord } from '../common/version.js';
import type { GatewayVersionDto, PluginDto } from './dto/gateway.dto.js';

/**
 * The level of the original gateway's interface the service offers at its root `version`.
 * Clients of the gateway read it as dotted integers and ask for 1.5 or later (the Python client
 * before its `apps` commands, the plug-in deployment guide); the service's own version
 * (package.json, 0.x) would fail them, so it is on each service's `<service>/version` instead.
 */
export const GATEWAY_INTERFACE_VERSION = '1.5.0';

/** The gateway's root records: its version and the index of its plug-ins (our services). */
@Injectable()
export class GatewayService {
  /** The root version record: the interface level, with the service's build and date. */
  version(): GatewayVersionDto {
    const { build, date } = versionRecord();
    return { version: GATEWAY_INTERFACE_VERSION, build, date };
  }

  /** One item per service, in SERVICE_ROUTES order; `base` is the service's absolute address. */
  plugins(base: string): PluginDto[] {
    const { version, build, date } = versionRecord();
    return SERVICE_ROUTES.map((s) => ({
      name: `pdm.${s.name}`,
      version,
      build: String(build),
      date,
      description: s.description,
      doc_url: `${base}/docs#/${s.name}`,
      module: null,
      blueprint: s.name,
    }));
  }
}
