// The breaking changes between two versions of a schema, as JSON lines on stdout
// ({"location": …, "change": …}), for `manage.py export_schemas --breaking`.
//
//   node breaking.js openapi OLD.yaml NEW.yaml    (openapi-diff)
//   node breaking.js asyncapi OLD.yaml NEW.yaml   (@asyncapi/diff, on dereferenced documents)
"use strict";

const fs = require("fs");
const yaml = require("js-yaml");

function pointed(root, ref) {
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((at, part) => (at === undefined ? undefined : at[part]), root);
}

function dereference(node, root, seen = new Set()) {
  if (Array.isArray(node)) return node.map((item) => dereference(item, root, seen));
  if (node === null || typeof node !== "object") return node;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
    if (seen.has(node.$ref)) return {};
    return dereference(pointed(root, node.$ref), root, new Set([...seen, node.$ref]));
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, dereference(value, root, seen)]),
  );
}

// What each of openapi-diff's breaking codes means for a client (its schema difference itself
// is a whole JSON schema: too long to print).
const MEANING = {
  "path.remove": "the path is gone",
  "method.remove": "the operation is gone",
  "request.body.scope.remove": "the request body takes fewer values than before",
  "response.body.scope.add": "the answer may hold values the released schema did not allow",
  "response.required.header.remove": "a header the answer always had may be missing",
  "response.status-code.remove": "a documented status is gone",
};

// A union discriminated by a property (`discriminator`) has members that never overlap, so its
// `oneOf` says what `anyOf` says; openapi-diff's schema difference of a 50-member `oneOf` ran for
// more than 20 minutes, of the same `anyOf` in under a minute.
function unionsAsAnyOf(node) {
  if (Array.isArray(node)) return node.map(unionsAsAnyOf);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node).map(([key, value]) => [key, unionsAsAnyOf(value)]);
  const plain = Object.fromEntries(entries);
  if (plain.discriminator && plain.oneOf) {
    const { oneOf, discriminator, ...rest } = plain;
    return { ...rest, anyOf: oneOf };
  }
  return plain;
}

function refsIn(node, found = []) {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (node !== null && typeof node === "object") {
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) found.push(node.$ref);
    Object.values(node).forEach((value) => refsIn(value, found));
  }
  return found;
}

// Whether every component `node` reaches through `$ref` (however deep) is the same text in
// both documents (`sameRef`); `older` is the document `node` is read from.
function sameIn(node, older, sameRef) {
  const pending = refsIn(node);
  const seen = new Set();
  while (pending.length) {
    const ref = pending.pop();
    if (seen.has(ref)) continue;
    seen.add(ref);
    if (!sameRef(ref)) return false;
    pending.push(...refsIn(pointed(older, ref)));
  }
  return true;
}

// A path whose item and every component it reaches are the same in both documents cannot hold
// a difference: it is left out of both, so openapi-diff compares only the paths that changed
// (its schema comparison of the whole document took minutes).
function withoutUnchangedPaths(older, newer) {
  const memo = new Map();
  const sameRef = (ref) => {
    if (!memo.has(ref)) {
      memo.set(ref, JSON.stringify(pointed(older, ref)) === JSON.stringify(pointed(newer, ref)));
    }
    return memo.get(ref);
  };
  const unchanged = new Set(Object.keys(older.paths || {}).filter((path) => {
    const item = older.paths[path];
    const other = (newer.paths || {})[path];
    return other !== undefined && JSON.stringify(item) === JSON.stringify(other)
      && sameIn(item, older, sameRef);
  }));
  const keep = (document) => ({
    ...document,
    paths: Object.fromEntries(
      Object.entries(document.paths || {}).filter(([path]) => !unchanged.has(path)),
    ),
  });
  return [keep(older), keep(newer)];
}

async function openapi(oldPath, newPath) {
  const openapiDiff = require("openapi-diff");
  const read = (path) => unionsAsAnyOf(yaml.load(fs.readFileSync(path, "utf8")));
  const [older, newer] = withoutUnchangedPaths(read(oldPath), read(newPath));
  const spec = (document, path) => ({
    content: JSON.stringify(document),
    location: path,
    format: "openapi3",
  });
  const outcome = await openapiDiff.diffSpecs({
    sourceSpec: spec(older, oldPath),
    destinationSpec: spec(newer, newPath),
  });
  return (outcome.breakingDifferences || []).map((difference) => ({
    location: [...difference.sourceSpecEntityDetails, ...difference.destinationSpecEntityDetails]
      .map((detail) => detail.location)
      .filter((value, index, all) => all.indexOf(value) === index)
      .join(" → "),
    change: `${difference.code}: ${MEANING[difference.code] || difference.action}`,
  }));
}

function asyncapi(oldPath, newPath) {
  const { diff } = require("@asyncapi/diff");
  const read = (path) => {
    const document = yaml.load(fs.readFileSync(path, "utf8"));
    return dereference(document, document);
  };
  const output = diff(read(oldPath), read(newPath), { outputType: "json" });
  return [...output.breaking(), ...output.unclassified().filter(insidePayloadBreaks)].map((change) => ({
    location: change.path,
    change: change.action + (change.before !== undefined ? " " + JSON.stringify(change.before) : "")
      + (change.after !== undefined ? " → " + JSON.stringify(change.after) : ""),
  }));
}

// @asyncapi/diff's standard classifies a channel message's payload as a whole: a change inside
// one is "unclassified". Here, inside a channel's message payload, a removal or an edit breaks a
// client (a field it reads is gone or changed), and so does a name added to a `required` list
// (a message it sends lacks it); any other addition does not, nor a change of the words.
function insidePayloadBreaks(change) {
  if (!/^\/channels\/[^/]+\/messages\/[^/]+\/payload\//.test(change.path)) return false;
  if (/\/(description|title|examples)(\/|$)/.test(change.path)) return false; // words, not shape
  return change.action !== "add" || /\/required(\/|$)/.test(change.path);
}

async function main() {
  const [kind, oldPath, newPath] = process.argv.slice(2);
  const found = kind === "openapi" ? await openapi(oldPath, newPath) : asyncapi(oldPath, newPath);
  for (const change of found) process.stdout.write(JSON.stringify(change) + "\n");
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + "\n");
  process.exit(2);
});
