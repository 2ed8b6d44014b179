import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { IterationsModule } from '../objects/versioned/iterations.module.js';
import { CadController } from './cad.controller.js';
import { CadRepository } from './cad.repository.js';
import { CadService } from './cad.service.js';

/**
 * Custom attributes of CAD documents and of their used links, and line numbers on those links
 * (/numbers/attributes/…, /numbers/used/…: routes of the number service). A change makes a new
 * iteration of the CAD document through the iterations module.
 */
@Module({
  imports: [AuthModule, IterationsModule],
  controllers: [CadController],
  providers: [CadService, CadRepository],
})
export class CadModule {}
