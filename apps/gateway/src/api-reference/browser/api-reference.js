/* global SwaggerUIBundle */
// Starts Swagger UI on /v1/openapi.json (served as a file: the page's CSP allows no inline script).
// The filter box searches operations and webhook events: path, method, summary, operation id and
// tag, any case, every word of the phrase.
(function startApiReference() {
  'use strict';

  function searchWords(phrase) {
    return typeof phrase === 'string' ? phrase.toLowerCase().split(/\s+/).filter(Boolean) : [];
  }

  function matches(words, parts) {
    var text = parts.filter(Boolean).join(' ').toLowerCase();
    return words.every(function (word) {
      return text.indexOf(word) !== -1;
    });
  }

  function operationParts(operation) {
    return [operation && operation.get('summary'), operation && operation.get('operationId')];
  }

  function OperationSearchPlugin() {
    return {
      fn: {
        opsFilter: function (taggedOperations, phrase) {
          var words = searchWords(phrase);
          if (words.length === 0) return taggedOperations;
          return taggedOperations
            .map(function (tagged, tag) {
              return tagged.set(
                'operations',
                tagged.get('operations').filter(function (entry) {
                  return matches(words, [tag, entry.get('method'), entry.get('path')].concat(operationParts(entry.get('operation'))));
                }),
              );
            })
            .filter(function (tagged) {
              return tagged.get('operations').size > 0;
            });
        },
      },
      statePlugins: {
        spec: {
          wrapSelectors: {
            // The webhook events are listed apart from the operations; the same search applies to them.
            selectWebhooksOperations: function (original, system) {
              return function () {
                var webhooks = original.apply(null, arguments);
                var words = searchWords(system.layoutSelectors.currentFilter());
                if (!webhooks || words.length === 0) return webhooks;
                var found = {};
                Object.keys(webhooks).forEach(function (name) {
                  var kept = webhooks[name].filter(function (entry) {
                    return matches(words, ['webhooks', name, entry.method].concat(operationParts(entry.operation)));
                  });
                  if (kept.length > 0) found[name] = kept;
                });
                return found;
              };
            },
          },
        },
      },
    };
  }

  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    filter: true,
    displayOperationId: true,
    displayRequestDuration: true,
    showExtensions: false,
    // The token stays in this page's memory: never in storage, gone on reload.
    persistAuthorization: false,
    // No call to the public validator badge service: everything stays on this gateway.
    validatorUrl: null,
    // Configuration from the query string is ignored (it could point the page at another document).
    queryConfigEnabled: false,
    tryItOutEnabled: false,
    defaultModelsExpandDepth: 0,
    plugins: [OperationSearchPlugin],
    onComplete: function () {
      var filter = document.querySelector('.operation-filter-input');
      if (filter) filter.placeholder = 'Search operations and webhook events: path, method, summary, operation id or tag';
    },
  });
})();
