// Render a Markdown file (argv[2]) with marked, the GitHub-flavoured
// Markdown renderer, and describe its tables as the reader sees them: per
// table, "table ROWS CELLS-PER-ROW..." and, for each cell that holds the
// text argv[3], "cell TEXT".  Exits 2 when marked cannot be loaded.
let marked;
try {
	const m = require("marked");
	marked = m.parse ? m : m.marked;
} catch (e) {
	process.exit(2);
}
const fs = require("fs");
const html = marked.parse(fs.readFileSync(process.argv[2], "utf8"),
    { gfm: true });
const needle = process.argv[3] || "";
for (const t of html.match(/<table>[\s\S]*?<\/table>/g) || []) {
	const rows = t.match(/<tr>[\s\S]*?<\/tr>/g) || [];
	const cells = rows.map((r) => (r.match(/<t[dh][ >]/g) || []).length);
	console.log("table " + rows.length + " " + cells.join(" "));
	for (const c of t.match(/<t[dh][^>]*>[\s\S]*?<\/t[dh]>/g) || [])
		if (needle && c.includes(needle))
			console.log("cell " + c);
}
