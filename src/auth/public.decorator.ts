import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'pdm:isPublic';

/** Marks a route that needs no credentials (health checks only). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
