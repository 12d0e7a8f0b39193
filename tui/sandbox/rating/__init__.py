"""The rating engine: carriers with personalities, LTL, parcel and truckload pricing."""
