/**
 * Python `template.format(**values)` for templates that use only plain named fields. `{{` and `}}` are brace
 * escapes; values are inserted literally (a skill containing `$&`, `$1` or `{}` stays as written). Anything
 * Python would reject or that this port does not implement (`{0}`, `{x!r}`, `{x:>5}`, an unmatched brace, a
 * missing name) throws, rather than silently producing a prompt Python would not.
 */
export function formatTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}|[{}]/g, (token: string, field: string | undefined) => {
    if (token === "{{") return "{";
    if (token === "}}") return "}";
    if (field === undefined) throw new Error(`Single '${token}' encountered in format string`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`Unsupported format field: {${field}}`);
    const value = Object.hasOwn(values, field) ? values[field] : undefined;
    if (value === undefined) throw new Error(`Missing format value: ${field}`);
    return value;
  });
}
