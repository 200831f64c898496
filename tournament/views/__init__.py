"""HTTP views: thin, they identify the viewer, call one service or selector and render a page or partial."""
