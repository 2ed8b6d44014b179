import { DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AdminModule } from './admin/admin.module.js';
import { GroupsModule } from './groups/groups.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CadModule } from './cad/cad.module.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { HttpErrorFilter } from './common/http-error.filter.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { EventsModule } from './events/events.module.js';
import { FilesModule } from './files/files.module.js';
import { GatewayModule } from './gateway/gateway.module.js';
import { HealthModule } from './health/health.module.js';
import { HistoryModule } from './history/history.module.js';
import { NumbersModule } from './numbers/numbers.module.js';
import { ObjectApiModule } from './object-api/object-api.module.js';
import { ObjectsModule } from './objects/objects.module.js';
import { PrincipalsModule } from './principals/principals.module.js';
import { PrismaModule } from './prisma/prisma.module.js';
import { QueryModule } from './query/query.module.js';
import { ReportsModule } from './reports/reports.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        PrismaModule,
        CatalogModule,
        AuthModule,
        ReportsModule,
        FilesModule,
        NumbersModule,
        CadModule,
        ObjectsModule,
        ObjectApiModule,
        QueryModule,
        AdminModule,
        GroupsModule,
        PrincipalsModule,
        HistoryModule,
        EventsModule,
        HealthModule,
        GatewayModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
        },
      ],
    };
  }
}
