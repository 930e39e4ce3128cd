; The bodies of `json { … }` literals and `type T = schema { … }` declarations are JSON.
((json_body) @injection.content
  (#set! injection.language "json"))
