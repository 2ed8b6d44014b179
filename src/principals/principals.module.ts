import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { PrincipalsController } from './principals.controller.js';
import { PrincipalsService } from './principals.service.js';

/** The principal service: users and groups to pick from, and who the caller is. */
@Module({
  imports: [AuthModule, GroupsModule],
  controllers: [PrincipalsController],
  providers: [PrincipalsService],
})
export class PrincipalsModule {}
