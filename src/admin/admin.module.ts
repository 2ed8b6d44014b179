import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { AdminContainersRepository } from './containers.repository.js';
import { ContainersController } from './containers.controller.js';
import { ContainersService } from './containers.service.js';
import { AdminRulesRepository } from './rules.repository.js';
import { RulesController } from './rules.controller.js';
import { RulesService } from './rules.service.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';
import { AdminWorkspacesRepository } from './workspaces.repository.js';
import { WorkspacesController } from './workspaces.controller.js';
import { WorkspacesService } from './workspaces.service.js';

/**
 * Administration over HTTP: users, containers and memberships, numbering rules, workspaces,
 * content roles. The users table belongs to auth (UsersRepository); the rules of changing it are here.
 */
@Module({
  imports: [AuthModule, CatalogModule],
  controllers: [UsersController, ContainersController, RulesController, WorkspacesController],
  providers: [
    UsersService,
    AdminContainersRepository,
    ContainersService,
    AdminRulesRepository,
    RulesService,
    AdminWorkspacesRepository,
    WorkspacesService,
  ],
})
export class AdminModule {}
