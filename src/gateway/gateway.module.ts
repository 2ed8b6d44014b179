import { Module } from '@nestjs/common';
import { GatewayController } from './gateway.controller.js';
import { GatewayService } from './gateway.service.js';

/** The root records of the original gateway (version, plug-in index); its aliases: gateway-aliases.ts. */
@Module({
  controllers: [GatewayController],
  providers: [GatewayService],
})
export class GatewayModule {}
