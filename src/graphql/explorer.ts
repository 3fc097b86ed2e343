// A local GraphiQL explorer: the page and its assets come from node_modules (graphiql 3 UMD, React 18,
// graphql-ws UMD), never a CDN, because the machines Tidemark runs on may have no internet. Queries
// and mutations go over HTTP, subscriptions over graphql-ws on the same path; both carry the
// Authorization header typed into the explorer's Headers editor (GraphiQL keeps it in localStorage,
// and the WebSocket reads it when it connects, lazily, at the first subscription). The default query
// says how to get a token, scoped roles included (a teacher token carries its school_ids).
import express, { type Router } from 'express';
import { dirname, join } from 'node:path';

const assets: Record<string, string> = {
  'react.js': join(dirname(require.resolve('react/package.json')), 'umd', 'react.production.min.js'),
  'react-dom.js': join(dirname(require.resolve('react-dom/package.json')), 'umd', 'react-dom.production.min.js'),
  'graphiql.js': join(dirname(require.resolve('graphiql/package.json')), 'graphiql.min.js'),
  'graphiql.css': join(dirname(require.resolve('graphiql/package.json')), 'graphiql.min.css'),
  'graphql-ws.js': join(dirname(require.resolve('graphql-ws/package.json')), 'umd', 'graphql-ws.min.js'),
};

export const explorerHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tidemark GraphQL explorer</title>
<link rel="stylesheet" href="/explorer/graphiql.css">
<style>html,body,#graphiql{height:100%;margin:0}</style></head>
<body><div id="graphiql">Loading the explorer…</div>
<script src="/explorer/react.js"></script>
<script src="/explorer/react-dom.js"></script>
<script src="/explorer/graphiql.js"></script>
<script src="/explorer/graphql-ws.js"></script>
<script>
  function storedHeaders() {
    try { return JSON.parse(window.localStorage.getItem('graphiql:headers') || '{}') || {}; } catch (e) { return {}; }
  }
  var wsClient = graphqlWs.createClient({
    url: (window.location.protocol === 'https:' ? 'wss://' : 'ws://') + window.location.host + '/graphql',
    lazy: true,
    connectionParams: function () { var h = storedHeaders(); return { authorization: h.Authorization || h.authorization }; },
  });
  var fetcher = GraphiQL.createFetcher({ url: window.location.origin + '/graphql', wsClient: wsClient });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, { fetcher: fetcher, defaultEditorToolsVisibility: true,
      defaultQuery: '# Put your token in Headers: {"Authorization": "Bearer ..."}\\n'
        + '# Mint one with the CLI (development secret or AUTH_JWT_SECRET), a scoped role with its claim:\\n'
        + '#   npm run token -- --role teacher --claim school_ids=11,12   (customer_id=c-42, student user_id=7)\\n'
        + '#   npm run token -- --role operator\\n'
        + '# A teacher reads and writes the results of its schools only; another school answers like a missing row.\\n'
        + '# Subscriptions work here too (operator token): subscription { publicationStateChanged { eventId to at } }\\n'
        + '{ health { ready stores { store up } } }\\n' }));
</script></body></html>`;

export function explorerAssets(): Router {
  const r = express.Router();
  for (const [name, file] of Object.entries(assets)) {
    r.get(`/explorer/${name}`, (_req, res) => res.sendFile(file, { maxAge: '1h' }));
  }
  return r;
}
