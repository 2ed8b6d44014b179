import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '../../common/periodic-task.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { TusUploadsService } from './tus-uploads.service.js';

/**
 * Removes, every FILES_TUS_SWEEP_INTERVAL_MS, the resumable uploads that expired unfinished
 * (FILES_TUS_EXPIRY_MS after they were created): their rows and their bytes. Several instances
 * may sweep at once: removing an upload that another already removed does nothing.
 */
@Injectable()
export class TusSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TusSweeper');
  private readonly task: PeriodicTask;

  constructor(
    private readonly uploads: TusUploadsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.task = new PeriodicTask({
      name: 'sweep of expired resumable uploads',
      intervalMs: config.filesTusSweepIntervalMs,
      run: () => this.sweep(),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  /** Sweeps once; returns how many uploads went. */
  async sweep(): Promise<number> {
    const n = await this.uploads.sweep();
    if (n > 0) this.logger.log(`removed ${n} expired resumable uploads`);
    return n;
  }
}
