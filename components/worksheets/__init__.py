"""The Worksheets page: the grid editor and its model, the row inspector, lint beside the grid, versions."""
