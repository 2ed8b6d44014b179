import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Clock } from '../common/clock.js';
import { RequestBodyReader } from '../common/request-body.reader.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AuthGuard } from './auth.guard.js';
import { AuthFailuresRepository } from './auth-failures.repository.js';
import { AuthNotices } from './auth-notices.js';
import { AuthNoticesRepository } from './auth-notices.repository.js';
import { AuthService } from './auth.service.js';
import { FailureThrottle } from './failure-throttle.js';
import { OidcAuth } from './oidc/oidc-auth.js';
import { OidcGroups } from './oidc/oidc-groups.js';
import { OidcUsers } from './oidc/oidc-users.js';
import { PermissionsRepository } from './permissions.repository.js';
import { PermissionsService } from './permissions.service.js';
import { UsersRepository } from './users.repository.js';
import { BearerAuth } from './bearer-auth.js';
import { AccessTokensRepository } from './tokens/access-tokens.repository.js';
import { AccessTokensService } from './tokens/access-tokens.service.js';
import { TokenAuthService } from './tokens/token-auth.service.js';
import { MyTokensController, UserTokensController } from './tokens/tokens.controller.js';

/**
 * Authentication and permissions: the global guard (APP_GUARD, so every route of the application
 * is guarded wherever this module is imported from), the services other modules inject, and
 * personal access tokens (src/auth/tokens/: /me/tokens, /admin/users/:name/tokens).
 */
@Module({
  controllers: [MyTokensController, UserTokensController],
  providers: [
    Clock,
    UsersRepository,
    AuthFailuresRepository,
    FailureThrottle,
    AuthNoticesRepository,
    AuthNotices,
    OidcUsers,
    OidcGroups,
    OidcAuth,
    AuthService,
    AccessTokensRepository,
    AccessTokensService,
    TokenAuthService,
    BearerAuth,
    PermissionsRepository,
    PermissionsService,
    {
      provide: RequestBodyReader,
      useFactory: (config: AppConfig) => new RequestBodyReader(config),
      inject: [APP_CONFIG],
    },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [
    AuthService,
    PermissionsService,
    FailureThrottle,
    RequestBodyReader,
    UsersRepository,
    OidcGroups,
    AuthNotices,
  ],
})
export class AuthModule {}
