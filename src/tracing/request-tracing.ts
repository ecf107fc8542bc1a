import { SpanExporter, type ExportObserver } from "./span-exporter.ts";
import { Tracer } from "./tracer.ts";
import type { TraceSettings } from "./trace-settings.ts";

/** The tracer of a process serving HTTP, its spans exported as the settings say; `observer` counts and tells what becomes of them. */
export function requestTracer(
  settings: TraceSettings,
  scope: { readonly name: string; readonly version: string },
  observer: ExportObserver,
): Tracer {
  return new Tracer(settings, new SpanExporter(settings, scope, observer));
}
