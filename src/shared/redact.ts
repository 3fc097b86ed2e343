// Error text that may be stored on a row or shown to an operator: a short, redacted summary. Raw
// exception messages can carry secrets (connection strings, tokens) or payload fragments; this keeps
// only a class/code and a sanitised, truncated message.

const SECRET_PATTERNS: RegExp[] = [
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@]+:[^\s/@]+@/gi, // user:password@ in URLs
  /\b(password|passwd|pwd|secret|token|api[_-]?key|authorization|bearer)\b\s*[:=]?\s*\S+/gi,
  /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, // JWTs
  /\{.*\}/gs, // anything JSON-shaped (payload fragments)
];

export interface SafeErrorSummary {
  code: string;
  summary: string;
}

export function summarizeError(err: unknown, maxLength = 200): SafeErrorSummary {
  const e = err as { name?: unknown; code?: unknown; type?: unknown; message?: unknown } | null;
  const code = String((e && (typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : e.name)) || 'UNKNOWN').slice(
    0,
    64,
  );
  let text = typeof e?.message === 'string' ? e.message : String(err);
  for (const p of SECRET_PATTERNS) text = text.replace(p, '[redacted]');
  text = text.replace(/[\u0000-\u001f]+/g, ' ').trim();
  return { code, summary: text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text };
}
