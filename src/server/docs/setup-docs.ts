import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { DOCS_CSP, withCsp } from '../http/security-headers.js';
import { openApiDocument } from './openapi.js';

/**
 * The written document, plus any route Nest serves that it does not describe yet (found by
 * scanning the controllers), so the docs never silently miss an endpoint.
 */
export function documentFor(app: INestApplication): OpenAPIObject {
  const doc = openApiDocument();
  const scanned = SwaggerModule.createDocument(app, { openapi: '3.1.0', info: doc.info });
  for (const [path, item] of Object.entries(scanned.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const known = doc.paths[path] as Record<string, unknown> | undefined;
      if (known?.[method]) continue;
      doc.paths[path] = { ...known, [method]: { ...(op as object), summary: 'Not documented yet', tags: ['undocumented'] } };
    }
  }
  return doc;
}

/**
 * Serves Swagger UI at /docs (its assets from the swagger-ui-dist package: the docs work offline)
 * and the OpenAPI document at /docs/openapi.json. The document is built on first request, when
 * every module's routes are registered. Its page gets Swagger UI's own CSP (DOCS_CSP).
 */
export function setupDocs(app: INestApplication): void {
  app.use('/docs', withCsp(DOCS_CSP));
  SwaggerModule.setup('docs', app, () => documentFor(app), {
    jsonDocumentUrl: 'docs/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Tiltyard API',
    // Swagger UI would send the document to validator.swagger.io; the server may be offline.
    swaggerOptions: { validatorUrl: null },
  });
}
