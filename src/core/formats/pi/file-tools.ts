// pi's file tools by name, and what each does to its file (file-ops.ts counts their calls;
// file-call-markers.ts looks for their names in a line). A file of its own: both import it,
// and neither may import the other's users.

export const TOOL_KIND: Record<string, "read" | "written" | "edited"> = { read: "read", write: "written", edit: "edited" };

/** The names of pi's file tools. */
export const FILE_TOOLS: readonly string[] = Object.keys(TOOL_KIND);
