import { z } from 'zod';

/**
 * A research file's JSON Schema from its zod schema: draft-07, the draft most validators
 * researchers reach for read (Python's jsonschema, ajv 6+, pandera, R's jsonvalidate), with its
 * file name as `$id`.
 *
 * @example draft7Schema(ExportRecord, 'export-record.schema.json', 'ExportRecord', 'One decision …')
 */
export function draft7Schema(schema: z.ZodType, id: string, title: string, description: string): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-7' }) as Record<string, unknown>;
  return { $schema, $id: id, title, description, ...rest };
}
