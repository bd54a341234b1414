/* sklearn-ndcg: gallery figures that stay legible on a phone.
 *
 * A figure drawn 900 px wide shrinks on a 390 px screen to 0.4 of its size, and its text
 * to 5 px. Each gallery figure is put in a box of its own, and given its natural width
 * as --natural-width; on a phone the stylesheet shows it at no less than 0.72 of that
 * width (text of 9 px or more), the box scrolling sideways instead of the page.
 */
document.addEventListener("DOMContentLoaded", () => {
  for (const img of document.querySelectorAll(
    "img.sphx-glr-single-img, img.sphx-glr-multi-img"
  )) {
    const box = document.createElement("div");
    box.className = "sklearn-ndcg-figure";
    img.replaceWith(box);
    box.appendChild(img);
    const natural = () =>
      img.style.setProperty("--natural-width", `${img.naturalWidth}px`);
    if (img.complete && img.naturalWidth) natural();
    else img.addEventListener("load", natural);
  }
});
