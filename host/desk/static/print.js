// The printouts' Print button (a file, not inline: a page may forbid inline scripts).
document.getElementById("print").addEventListener("click", function () { window.print(); });
