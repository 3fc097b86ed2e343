// The edge: maps typed errors to GraphQL error codes. Only here do TidemarkError codes become
// `extensions.code`; unknown errors become INTERNAL_SERVER_ERROR with a fixed message, and their real
// text goes to the log, never to the client. Stack traces are shown only in development.
import type { GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { TidemarkError } from '../shared/errors';
import type { Logger } from '../shared/logger';

const PASS_THROUGH = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'QUERY_TOO_COMPLEX',
  'DOCUMENT_TOO_LARGE',
  'RATE_LIMITED',
]);

export function formatGraphQLError(logger: Logger, development: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof TidemarkError) {
      if (original.code === 'INTERNAL') logger.error({ err: original.cause ?? original, path: formatted.path }, 'internal error');
      return {
        message: original.code === 'INTERNAL' ? 'internal error' : original.message,
        path: formatted.path,
        locations: formatted.locations,
        extensions: {
          code: original.code === 'INTERNAL' ? 'INTERNAL_SERVER_ERROR' : original.code,
          retriable: original.retriable,
          ...(Object.keys(original.details).length ? { details: original.details } : {}),
        },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && PASS_THROUGH.has(code)) {
      // Apollo's own request errors: keep them, minus any stack trace outside development. graphql-js
      // echoes rejected variable values in its messages; a long one is cut so a 1 MB input does not
      // come back as a 1 MB error.
      const message = shortenEchoes(formatted.message);
      return development ? { ...formatted, message } : { ...formatted, message, extensions: { code } };
    }
    logger.error({ err: original, path: formatted.path }, 'unhandled resolver error');
    return {
      message: 'internal error',
      path: formatted.path,
      locations: formatted.locations,
      extensions: { code: 'INTERNAL_SERVER_ERROR', retriable: false },
    };
  };
}

/** Shortens every quoted value longer than 60 characters, and the whole message to 1,000. */
export function shortenEchoes(message: string): string {
  const short = message.replace(/"((?:[^"\\]|\\.){60,})"/g, (_, v: string) => `"${v.slice(0, 40)}…(${v.length} characters)"`);
  return short.length > 1000 ? `${short.slice(0, 999)}…` : short;
}
