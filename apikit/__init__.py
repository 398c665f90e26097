"""The API framework: operations declared once (``apikit.actions``) and served by REST and
GraphQL alike, shapes, lists, inputs, events and the documents made from them (README.md)."""
