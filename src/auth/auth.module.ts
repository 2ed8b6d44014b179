import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard.js';
import { AuthService } from './auth.service.js';
import { PermissionsService } from './permissions.service.js';
import { UsersRepository } from './users.repository.js';

@Global()
@Module({
  providers: [UsersRepository, AuthService, PermissionsService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService, PermissionsService],
})
export class AuthModule {}
