/**
 * The page's HTML: a shell that loads the bundle. The token is ours (hex), so it is safe in an attribute; the
 * script reads it back from the URL.
 */
export function pageHtml(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>agentcall devtools</title>
<link rel="stylesheet" href="/app.css?token=${token}">
</head>
<body>
<div id="app"></div>
<script src="/app.js?token=${token}"></script>
</body>
</html>
`;
}
