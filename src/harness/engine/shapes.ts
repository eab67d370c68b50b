/**
 * Request shapes the spec leaves open (Endpoint rules 9 and 11; issue 25): a request template names the
 * shape (`shape: { of: webhook_delete, value: ... }`) and the profile says where the value goes
 * (target/paging.ts RequestShape): a JSON body `{<name>: value}` (name '' = `{}`), a query parameter, a form
 * field, or nowhere. The ONE place that applies them: buildRequest for scenarios, the model property's API
 * client for its own PUT (placeShape).
 */
import type { RequestShape } from '../target/paging.js';

export interface PlacedShape {
  query?: Record<string, string>;
  /** The body text and its content type. */
  body?: { text: string; contentType: string };
}

export function placeShape(shape: RequestShape, value: string): PlacedShape {
  const name = shape.name ?? '';
  switch (shape.in) {
    case 'json-body': return { body: { text: JSON.stringify(name === '' ? {} : { [name]: value }), contentType: 'application/json' } };
    case 'form': return { body: { text: new URLSearchParams({ [name]: value }).toString(), contentType: 'application/x-www-form-urlencoded' } };
    case 'query': return { query: { [name]: value } };
    default: return {};
  }
}
