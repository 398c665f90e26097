/* Starts GraphiQL on /graphql/: queries and mutations over HTTP, subscriptions on the socket
   whose path the page names (a file, not an inline script: the Content-Security-Policy allows
   scripts from this server only). */
(function () {
  const root = document.getElementById("graphiql");
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = scheme + location.host + root.dataset.socketPath;
  const fetcher = GraphiQL.createFetcher({ url: location.pathname, subscriptionUrl: socket });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, { fetcher: fetcher, defaultEditorToolsVisibility: true })
  );
})();
