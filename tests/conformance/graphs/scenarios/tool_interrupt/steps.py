"""Human review inside a tool: the tool asks with interrupt() before it acts; the answer
decides what it returns to the model."""

import dualside as ds


def book_hotel(hotel_name: str) -> str:
    """Book a hotel."""
    answer = ds.interrupt({"action": "book_hotel", "hotel_name": hotel_name})
    if answer == "yes":
        return f"Booked {hotel_name}."
    return f"The user declined booking {hotel_name}."
