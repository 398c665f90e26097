// English when the language catalogue (/jsi18n/) could not be loaded: the client's words as
// written, plurals by English's rule, and Django's interpolate(). A loaded catalogue's own
// functions are kept. A classic script: it runs before the modules that call these.
globalThis.gettext ??= (text) => text;
globalThis.ngettext ??= (one, many, count) => (count === 1 ? one : many);
globalThis.interpolate ??= (format, values, named) =>
  named
    ? format.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]))
    : ((queue) => format.replace(/%s/g, () => String(queue.shift())))([...values]);
