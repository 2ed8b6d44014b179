import { Module, type OnModuleInit } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { OidcGroups } from '../auth/oidc/oidc-groups.js';
import { ContainerGroupsController } from './container-groups.controller.js';
import { GroupsController } from './groups.controller.js';
import { GroupsRepository } from './groups.repository.js';
import { GroupsService } from './groups.service.js';

/**
 * Groups of users and of groups, their roles in containers, and the groups an OpenID Connect
 * groups claim gives (GroupsService.syncClaimGroups). What a user may do is read from
 * access_roles, which the database keeps from memberships and groups.
 */
@Module({
  imports: [AuthModule],
  controllers: [GroupsController, ContainerGroupsController],
  providers: [GroupsRepository, GroupsService],
  exports: [GroupsService],
})
export class GroupsModule implements OnModuleInit {
  constructor(
    private readonly claims: OidcGroups,
    private readonly groups: GroupsService,
  ) {}

  /** The groups claims of OpenID Connect tokens fill group memberships from now on. */
  onModuleInit(): void {
    this.claims.bind(this.groups);
  }
}
