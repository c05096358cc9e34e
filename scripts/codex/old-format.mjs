console.log("old-format: todo")
